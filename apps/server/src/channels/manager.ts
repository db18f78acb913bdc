import type { ProviderName } from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import { enabledConnections } from '../db/channel-queries';
import type { DbHandle } from '../db/tenant';
import type { ChannelCommand, LeaseKeeper } from '../platform/leases';
import type {
  AckUpdate,
  ChannelProvider,
  ChannelSession,
  ConnectionRef,
  InboundChange,
  InboundMessage,
  OutboundMessage,
  ReadReceipt,
  SentMessage,
  StatusUpdate,
} from './provider';

/** Where the manager hands what providers report. */
export interface ChannelSink {
  inbound(connection: ConnectionRef, message: InboundMessage): Promise<unknown>;
  change(connection: ConnectionRef, change: InboundChange): Promise<void>;
  ack(connection: ConnectionRef, update: AckUpdate): Promise<void>;
  status(connection: ConnectionRef, update: StatusUpdate): Promise<void>;
  /** Sends a stored outbound message through a session of this instance. */
  sendStored(companyId: number, messageId: number): Promise<void>;
}

interface Running {
  ref: ConnectionRef;
  session: ChannelSession;
  /** The tail of each chat's queue: one chat's messages are stored in the order they came. */
  chats: Map<string, Promise<unknown>>;
}

export class ChannelNotRunningError extends Error {}

const SWEEP_MS = 5_000;

/**
 * Runs the sessions this instance owns. Ownership is a lease (an advisory lock); a sweep takes
 * over enabled connections nobody holds, so when an instance dies its connections move on.
 */
export class ChannelManager {
  readonly #running = new Map<number, Running>();
  readonly #providers: Map<ProviderName, ChannelProvider>;
  #timer?: NodeJS.Timeout;
  readonly #pending = new Set<Promise<void>>();
  #sweeping?: Promise<void>;
  #closed = false;

  constructor(
    private readonly deps: {
      db: DbHandle;
      leases: LeaseKeeper;
      providers: ChannelProvider[];
      sink: ChannelSink;
      log: FastifyBaseLogger;
    },
  ) {
    this.#providers = new Map(deps.providers.map((provider) => [provider.name, provider]));
  }

  provider<T extends ChannelProvider>(name: ProviderName): T | undefined {
    return this.#providers.get(name) as T | undefined;
  }

  async open(): Promise<void> {
    await this.deps.leases.open();
    await this.sweep();
    this.#timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.#timer.unref();
  }

  /** Starts every enabled connection that no instance owns. */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweep().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweep() {
    if (this.#closed) return;
    try {
      const wanted = await enabledConnections(this.deps.db);
      for (const row of wanted) {
        if (this.#running.has(row.id) || this.#closed) continue;
        if (!this.#providers.has(row.provider as ProviderName)) continue;
        if (await this.deps.leases.acquire(row.id)) {
          await this.#startLocal(
            { id: row.id, companyId: row.companyId, name: row.name },
            row.provider as ProviderName,
          );
        }
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'channel sweep failed');
    }
  }

  /** A command published by any instance; only the owner acts on it. */
  command(command: ChannelCommand): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const work = this.#command(command).catch((error) =>
      this.deps.log.error({ err: error, command }, 'channel command failed'),
    );
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
    return work;
  }

  async #command(command: ChannelCommand): Promise<void> {
    const running = this.#running.get(command.connectionId);
    if (command.action === 'send') {
      if (running) await this.deps.sink.sendStored(command.companyId, command.messageId);
      return;
    }
    if (command.action === 'read') {
      if (running) await running.session.markRead?.(command.receipt);
      return;
    }
    if (!running) {
      if (command.action === 'start' || command.action === 'restart') await this.sweep();
      return;
    }
    if (command.action === 'restart') {
      await this.#stopLocal(command.connectionId, false);
      await this.sweep();
    } else if (command.action === 'stop' || command.action === 'logout') {
      await this.#stopLocal(command.connectionId, command.action === 'logout');
    }
  }

  isRunningHere(connectionId: number): boolean {
    return this.#running.has(connectionId);
  }

  async send(connectionId: number, message: OutboundMessage): Promise<SentMessage> {
    const running = this.#running.get(connectionId);
    if (!running) throw new ChannelNotRunningError();
    return running.session.send(message);
  }

  async deleteMessage(
    connectionId: number,
    message: { chatId: string; providerMessageId: string; fromMe: boolean },
  ): Promise<void> {
    const running = this.#running.get(connectionId);
    if (!running) throw new ChannelNotRunningError();
    await running.session.deleteMessage(message);
  }

  /**
   * Read receipts for the contact, sent in the background by the instance that owns the
   * connection (here, or the owner through a command). Never rejects: the contact missing its
   * blue ticks must not fail what an agent did.
   */
  markRead(connectionId: number, receipt: ReadReceipt): Promise<void> {
    if (this.#closed || receipt.messages.length === 0) return Promise.resolve();
    const running = this.#running.get(connectionId);
    const work = (
      running
        ? Promise.resolve(running.session.markRead?.(receipt))
        : this.deps.leases.publish({ connectionId, action: 'read', receipt })
    ).catch((error) =>
      this.deps.log.warn({ err: error, connectionId }, 'read receipts could not be sent'),
    );
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
    return work;
  }

  /** The chat's profile picture through this instance's session, if it runs here. */
  async profilePicture(
    connectionId: number,
    chat: { chatId: string; isGroup: boolean },
  ): Promise<Buffer | undefined> {
    const running = this.#running.get(connectionId);
    if (!running?.session.profilePicture) return undefined;
    return running.session.profilePicture(chat);
  }

  /** Background work of the channels (e.g. storing a picture) that closing waits for. */
  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      (error) => this.deps.log.warn({ err: error }, 'channel background work failed'),
    );
    this.#pending.add(settled);
    void settled.finally(() => this.#pending.delete(settled));
  }

  async #startLocal(ref: ConnectionRef, providerName: ProviderName) {
    const provider = this.#providers.get(providerName)!;
    const running: Running = {
      ref,
      session: undefined as unknown as ChannelSession,
      chats: new Map(),
    };
    const { sink } = this.deps;
    running.session = provider.open(ref, {
      status: (update) => sink.status(ref, update),
      inbound: (message) =>
        this.#inOrder(running, message.chatId, () => sink.inbound(ref, message)),
      change: (change) => this.#inOrder(running, change.chatId, () => sink.change(ref, change)),
      ack: (update) => sink.ack(ref, update),
    });
    this.#running.set(ref.id, running);
    try {
      await running.session.start();
    } catch (error) {
      this.deps.log.error({ err: error, connectionId: ref.id }, 'channel session failed to start');
      await this.#stopLocal(ref.id, false);
    }
  }

  async #stopLocal(connectionId: number, logout: boolean) {
    const running = this.#running.get(connectionId);
    this.#running.delete(connectionId);
    try {
      await running?.session.stop({ logout });
    } finally {
      await this.deps.leases.release(connectionId);
    }
  }

  #inOrder<T>(running: Running, chatId: string, work: () => Promise<T>): Promise<void> {
    const previous = running.chats.get(chatId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    running.chats.set(chatId, tail);
    void tail.then(() => {
      if (running.chats.get(chatId) === tail) running.chats.delete(chatId);
    });
    return next.then(() => undefined);
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await Promise.allSettled([...this.#pending]);
    this.#closed = true;
    await this.#sweeping;
    for (const id of [...this.#running.keys()]) {
      const running = this.#running.get(id);
      this.#running.delete(id);
      await running?.session.stop({ logout: false }).catch(() => {});
    }
    await this.deps.leases.close();
  }
}
