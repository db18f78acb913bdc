import { randomBytes } from 'node:crypto';
import { ACK, type Message, type Ticket } from '@atendi/shared';
import { SendOutcomeUnknownError } from '../../channels/errors';
import type { OutboundMessage } from '../../channels/provider';
import { ChannelNotRunningError } from '../../channels/sessions';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { ServiceDeps } from '../deps';
import { previewOf } from './messages.preview';
import {
  claimForSending,
  insertOutgoing,
  markSendFailed,
  markSent,
  messageById,
  messageExists,
  messageInTicket,
  type NewOutgoing,
  newestSending,
  outgoingWithChat,
  pendingSends,
  releaseClaim,
  reopenFailed,
  sendTargetOf,
  settleStaleSends,
  storeOutgoing,
} from './messages.repository';

export const ACK_FAILED = ACK.failed;
export const ACK_PENDING = ACK.pending;
/**
 * A send claimed this long ago by an instance that never reported is taken as interrupted
 * (longer than any provider call may take: the Graph API's 30 s, WhatsApp Web's queries).
 */

/** Providers that accept our id for a message; the others name it themselves. */
const CHOOSES_OWN_ID = new Set(['cloud-api']);

/**
 * Looks again at a connection's sends that were in flight when it came up: one claimed by an
 * instance that died counts as interrupted only later.
 */
export const STALE_SENDS_JOB = 'outbound.staleSends';

/** WhatsApp-style id: 20 upper-case hex characters after a fixed prefix. */
export const newProviderMessageId = () => `3EB0${randomBytes(10).toString('hex').toUpperCase()}`;

/**
 * How the sender reads the ticket its announcements carry: the tickets module's `ticketOf`,
 * handed over when the services are built. The tickets module sends through this one (its
 * automatic messages), so the sender takes the reader instead of importing it back.
 */
export type TicketReader = (db: TenantDb, id: number) => Promise<Ticket | undefined>;

export interface OutboundDraft {
  body: string;
  quotedMsgId?: number | null;
  media?: {
    key: string;
    mimeType: string;
    fileName: string;
    kind: 'image' | 'audio' | 'video' | 'document';
  };
  /** A copy of another message (a forward), marked so where the network can show it. */
  forwarded?: boolean;
}

/**
 * Sends what agents and automations write. The message row is committed first (ack 1, state
 * 'pending'); whoever sends it first claims it ('sending') in one statement, so two instances,
 * a retry racing a flush or two clicks never send it twice. A failure leaves ack 0 and
 * ERR_SENDING_WAPP_MSG: 'failed' when nothing went out (or the provider recognises our id),
 * 'unknown' when a provider that names messages itself may have taken it; then only a person
 * sends it again.
 */
export class OutboundSender {
  constructor(
    private readonly platform: Pick<
      ServiceDeps,
      'db' | 'events' | 'storage' | 'channels' | 'config' | 'jobs'
    >,
    private readonly ticketOf: TicketReader,
  ) {
    platform.jobs.define<{ companyId: number; connectionId: number }>(STALE_SENDS_JOB, {
      policy: 'short',
      retryLimit: 3,
      handler: ({ companyId, connectionId }) => this.#resume(companyId, connectionId),
    });
  }

  async send(ctx: RequestContext, ticketId: number, draft: OutboundDraft): Promise<Message> {
    const db = tenantDb(ctx);
    const target = await sendTargetOf(db, ticketId);
    if (!target) throw new AppError('ERR_NO_TICKET_FOUND', 404);
    if (!target.connectionId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);
    const quoted = draft.quotedMsgId
      ? await messageInTicket(db, draft.quotedMsgId, ticketId)
      : undefined;

    const row = outgoingRow(target.provider, target.connectionId, draft, quoted?.id ?? null);
    const messageId = await storeOutgoing(db, ticketId, row.message, row.preview);
    return this.sendStored(ctx.companyId, messageId);
  }

  /**
   * Announces a message stored as pending (by `send`, or in another module's transaction) and
   * hands it to its connection. Until it is sent, the flush of its connection covers it.
   */
  async sendStored(companyId: number, messageId: number): Promise<Message> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    await this.#announce(db, companyId, messageId, 'create');
    return this.deliver(companyId, messageId);
  }

  /**
   * Sends a failed message again, under the id it was first sent with. Only one of concurrent
   * retries gets it back to 'pending'; the others answer 409.
   */
  async retry(ctx: RequestContext, messageId: number): Promise<Message> {
    const db = tenantDb(ctx);
    // Leaving the failed ack is the claim: a concurrent retry finds nothing to reopen.
    if (!(await reopenFailed(db, messageId))) {
      if (!(await messageExists(db, messageId))) throw new AppError('ERR_NOT_FOUND', 404);
      throw new AppError('ERR_VALIDATION', 409);
    }
    await this.#announce(db, ctx.companyId, messageId, 'update');
    return this.deliver(ctx.companyId, messageId);
  }

  /**
   * Hands a stored message to its connection's session: here when this instance owns it, else
   * to the owner through a command (the answer then carries ack 1 until the owner reports).
   */
  async deliver(companyId: number, messageId: number): Promise<Message> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const outbound = await this.#outbound(db, messageId);
    if (!outbound) throw new AppError('ERR_NOT_FOUND', 404);
    const { connectionId, message } = outbound;
    if (!this.platform.channels.isRunningHere(connectionId)) {
      await this.platform.channels.publish({ connectionId, action: 'send', companyId, messageId });
      return (await messageById(db, messageId, this.platform.storage))!;
    }
    // One sender only: the row moves from 'pending' to 'sending' for exactly one caller.
    if (!(await claimForSending(db, messageId)))
      return (await messageById(db, messageId, this.platform.storage))!;
    try {
      const sent = await this.platform.channels.send(connectionId, message);
      await markSent(db, messageId, sent);
      this.platform.events.emit('message.sent', { companyId, messageId });
    } catch (error) {
      if (error instanceof ChannelNotRunningError) {
        // The session left this instance between the check and the send (a hand-over): nothing
        // went out, so the message waits for the next owner, asked at once.
        await releaseClaim(db, messageId);
        await this.platform.channels.publish({
          connectionId,
          action: 'send',
          companyId,
          messageId,
        });
        return (await messageById(db, messageId, this.platform.storage))!;
      }
      // With our own id a second send is the same message to the network: safe to repeat.
      const unknown = error instanceof SendOutcomeUnknownError && !message.providerMessageId;
      await markSendFailed(db, messageId, unknown ? 'unknown' : 'failed');
      await this.#announce(db, companyId, messageId, 'update');
      throw new AppError('ERR_SENDING_WAPP_MSG', 400);
    }
    return this.#announce(db, companyId, messageId, 'update');
  }

  /**
   * When a session connects, sends what waited for it ('pending': queued while no instance owned
   * the connection, or while it was down). A send in flight elsewhere is safe: the claim lets
   * one of them through. A send interrupted long ago (its instance died mid-call) is pending
   * again when the network recognises our id, else the agent is shown it failed.
   */
  async flushPending(companyId: number, connectionId: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const staleMs = this.platform.config.OUTBOUND_STALE_SEND_SECONDS * 1000;
    // A send still in flight now may be one an instance that died had claimed (a server killed
    // and started again within the window): all of them are looked at again once they would
    // count as interrupted; by then a live instance's send has long been recorded.
    const newest = await newestSending(db, connectionId);
    if (newest) {
      const dueAt = Math.max(newest.getTime() + staleMs + 1_000, Date.now());
      await this.platform.jobs
        .send(
          STALE_SENDS_JOB,
          { companyId, connectionId },
          { delayMs: dueAt - Date.now(), singletonKey: `${connectionId}@${dueAt}` },
        )
        .catch(() => undefined);
    }
    await this.#resume(companyId, connectionId);
  }

  /** Interrupted sends settled (pending again, or unknown), then what waits handed over. */
  async #resume(companyId: number, connectionId: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const interrupted = await settleStaleSends(
      db,
      connectionId,
      new Date(Date.now() - this.platform.config.OUTBOUND_STALE_SEND_SECONDS * 1000),
    );
    for (const { id } of interrupted) await this.#announce(db, companyId, id, 'update');
    // An agent may have deleted one before it could be sent: that one stays unsent.
    const pending = await pendingSends(db, connectionId, 500);
    for (const { id } of pending) await this.deliver(companyId, id).catch(() => {});
  }

  async #outbound(db: TenantDb, messageId: number) {
    const row = await outgoingWithChat(db, messageId);
    const connectionId = row?.message.connectionId;
    if (!row || !connectionId) return undefined;
    const { message, quoted } = row;
    const outbound: OutboundMessage = {
      ...(message.providerMessageId ? { providerMessageId: message.providerMessageId } : {}),
      chatId: row.number,
      isGroup: row.isGroup,
      body: message.body,
      ...(message.mediaPath
        ? {
            media: {
              path: message.mediaPath,
              mimeType: message.mediaMime ?? 'application/octet-stream',
              fileName: message.mediaName ?? 'file',
              kind: kindOf(message.mediaType),
            },
          }
        : {}),
      ...(quoted?.providerMessageId
        ? {
            quoted: {
              providerMessageId: quoted.providerMessageId,
              fromMe: quoted.fromMe,
              body: quoted.body,
            },
          }
        : {}),
      ...(message.isForwarded ? { forwarded: true } : {}),
    };
    return { connectionId, message: outbound };
  }

  async #announce(db: TenantDb, companyId: number, messageId: number, action: 'create' | 'update') {
    const message = (await messageById(db, messageId, this.platform.storage))!;
    const ticket = await this.ticketOf(db, message.ticketId);
    if (ticket) this.platform.events.emit('message.saved', { companyId, action, message, ticket });
    return message;
  }
}

/**
 * Stores an outgoing message as waiting to be sent, inside the caller's transaction (a
 * schedule's or a campaign's own commit), and moves the ticket's preview; `sendStored`
 * announces and sends it once that committed. Answers the message's id.
 */
export function storePending(
  tx: TenantDb,
  ticketId: number,
  connection: { id: number; provider: string | null | undefined },
  draft: OutboundDraft,
): Promise<number> {
  const row = outgoingRow(connection.provider, connection.id, draft);
  return insertOutgoing(tx, ticketId, row.message, row.preview);
}

/**
 * The row of an outgoing message on a connection of `provider`, and the ticket's preview: under
 * an id of ours unless the provider names its messages itself.
 */
function outgoingRow(
  provider: string | null | undefined,
  connectionId: number,
  draft: OutboundDraft,
  quotedMsgId: number | null = null,
): { message: NewOutgoing; preview: string } {
  const mediaType = draft.media ? mediaTypeOf(draft.media.kind) : 'chat';
  return {
    message: {
      connectionId,
      providerMessageId: CHOOSES_OWN_ID.has(provider ?? '') ? null : newProviderMessageId(),
      body: draft.body,
      ack: ACK_PENDING,
      mediaType,
      mediaPath: draft.media?.key ?? null,
      mediaName: draft.media?.fileName ?? null,
      mediaMime: draft.media?.mimeType ?? null,
      quotedMsgId,
      isForwarded: draft.forwarded ?? false,
    },
    preview: previewOf({ mediaType, body: draft.body }),
  };
}

function mediaTypeOf(kind: 'image' | 'audio' | 'video' | 'document') {
  return kind === 'document' ? ('application' as const) : kind;
}

function kindOf(mediaType: string): 'image' | 'audio' | 'video' | 'document' {
  return mediaType === 'image' || mediaType === 'audio' || mediaType === 'video'
    ? mediaType
    : 'document';
}
