import type { DeferredCommand } from '../../channels/commands';
import type { ReadReceipt } from '../../channels/provider';
import { ChannelNotRunningError } from '../../channels/sessions';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import type { ServiceDeps } from '../deps';
import {
  deferredById,
  deferredFor,
  forgetDeferredBefore,
  removeDeferred,
  sessionEnabled,
  storeDeferred,
} from './messages.deferred.repository';

/** A command kept longer than this is dropped rather than carried out. */
const KEEP_MS = 24 * 3_600_000;
const FLUSH_BATCH = 200;

/**
 * Commands for a connection's session that must not be lost when no instance runs it at the
 * moment they are asked (its owner just died, a takeover is under way): read receipts, and a
 * deletion for everyone the owner did not answer. They run here when the session does; else they
 * are kept in the database and the owner is told, and the next owner carries out what is left
 * when its session connects. A command is deleted after it ran, so it runs at least once; both
 * kinds are harmless to repeat.
 */
export class DeferredCommands {
  constructor(private readonly platform: Pick<ServiceDeps, 'db' | 'channels'>) {}

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  /** In the background: the agent's screen never waits for the network, nor fails with it. */
  markRead(companyId: number, connectionId: number, receipt: ReadReceipt): void {
    if (receipt.messages.length === 0) return;
    this.platform.channels.track(
      this.#perform(companyId, connectionId, { action: 'read', receipt }),
    );
  }

  /**
   * A deletion for everyone that no owner carried out now, kept for the next one when the
   * connection is meant to run (its owner died, a takeover is under way). Answers false for a
   * connection switched off: nobody would carry it out.
   */
  async deleteLater(
    companyId: number,
    connectionId: number,
    message: { chatId: string; providerMessageId: string; fromMe: boolean },
  ): Promise<boolean> {
    if (!(await sessionEnabled(this.#db(companyId), connectionId))) return false;
    await this.#defer(companyId, connectionId, { action: 'delete', ...message });
    return true;
  }

  async #perform(companyId: number, connectionId: number, command: DeferredCommand) {
    if (this.platform.channels.isRunningHere(connectionId)) {
      try {
        await this.platform.channels.perform(connectionId, command);
        return;
      } catch (error) {
        // It left this instance meanwhile: kept for the next owner like any other.
        if (!(error instanceof ChannelNotRunningError)) throw error;
      }
    }
    await this.#defer(companyId, connectionId, command);
  }

  async #defer(companyId: number, connectionId: number, command: DeferredCommand) {
    const commandId = await storeDeferred(this.#db(companyId), connectionId, command);
    await this.platform.channels.publish({
      connectionId,
      action: 'deferred',
      companyId,
      commandId,
    });
  }

  /** The owner's part: one command it was told of (already carried out if it is gone). */
  async run(companyId: number, commandId: number): Promise<void> {
    const db = this.#db(companyId);
    const row = await deferredById(db, commandId);
    if (!row) return;
    await this.platform.channels.perform(row.connectionId, row.command);
    await removeDeferred(db, row.id);
  }

  /** When a session connects: what was kept for its connection, oldest first. */
  async flush(companyId: number, connectionId: number): Promise<void> {
    const db = this.#db(companyId);
    await forgetDeferredBefore(db, connectionId, new Date(Date.now() - KEEP_MS));
    let after = 0;
    for (;;) {
      const batch = await deferredFor(db, connectionId, after, FLUSH_BATCH);
      for (const { id, command } of batch) {
        after = id;
        // One that fails stays for the next connect; the others go on.
        const done = await this.platform.channels.perform(connectionId, command).then(
          () => true,
          () => false,
        );
        if (done) await removeDeferred(db, id);
      }
      if (batch.length < FLUSH_BATCH) return;
    }
  }
}
