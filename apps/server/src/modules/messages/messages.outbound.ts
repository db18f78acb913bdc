import { randomBytes } from 'node:crypto';
import type { Message } from '@atendi/shared';
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Platform } from '../../app';
import { ChannelNotRunningError } from '../../channels/manager';
import type { OutboundMessage } from '../../channels/provider';
import { connections, contacts, messages, tickets } from '../../db/schema';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { ticketById } from '../tickets/tickets.repository';
import { messageById } from './messages.repository';

export const ACK_FAILED = -1;
export const ACK_PENDING = 0;
const PENDING_GRACE_MS = 5_000;

/** Providers that accept our id for a message; the others name it themselves. */
const CHOOSES_OWN_ID = new Set(['cloud-api']);

/** WhatsApp-style id: 20 upper-case hex characters after a fixed prefix. */
export const newProviderMessageId = () => `3EB0${randomBytes(10).toString('hex').toUpperCase()}`;

export interface OutboundDraft {
  body: string;
  quotedMsgId?: number | null;
  media?: {
    key: string;
    mimeType: string;
    fileName: string;
    kind: 'image' | 'audio' | 'video' | 'document';
  };
}

/**
 * Sends what agents and automations write. The message row is committed first (ack 0), then the
 * provider is called; a failure leaves the row with ack -1 and ERR_SENDING_WAPP_MSG, and a retry
 * sends under the same id, so the network does not deliver it twice.
 */
export class OutboundSender {
  constructor(
    private readonly platform: Pick<Platform, 'db' | 'events' | 'storage' | 'channels' | 'leases'>,
  ) {}

  async send(ctx: RequestContext, ticketId: number, draft: OutboundDraft): Promise<Message> {
    const db = tenantDb(ctx);
    const [target] = await db
      .select({ connectionId: tickets.whatsappId, provider: connections.provider })
      .from(tickets, eq(tickets.id, ticketId))
      .leftJoin(connections, eq(connections.id, tickets.whatsappId));
    if (!target) throw new AppError('ERR_NO_TICKET_FOUND', 404);
    if (!target.connectionId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);
    const quoted = draft.quotedMsgId
      ? await db
          .select({ id: messages.id })
          .from(messages, and(eq(messages.id, draft.quotedMsgId), eq(messages.ticketId, ticketId)))
      : [];

    const messageId = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(messages, {
          ticketId,
          connectionId: target.connectionId,
          providerMessageId: CHOOSES_OWN_ID.has(target.provider ?? '')
            ? null
            : newProviderMessageId(),
          body: draft.body,
          fromMe: true,
          read: true,
          ack: ACK_PENDING,
          mediaType: draft.media ? mediaTypeOf(draft.media.kind) : 'chat',
          mediaPath: draft.media?.key ?? null,
          mediaName: draft.media?.fileName ?? null,
          mediaMime: draft.media?.mimeType ?? null,
          quotedMsgId: quoted[0]?.id ?? null,
        })
        .returning({ id: messages.id });
      await tx.update(
        tickets,
        { lastMessage: draft.body || draft.media?.fileName || '', updatedAt: new Date() },
        eq(tickets.id, ticketId),
      );
      return row!.id;
    });
    await this.#announce(db, ctx.companyId, messageId, 'create');
    return this.deliver(ctx.companyId, messageId);
  }

  /** Sends a failed message again, under the id it was first sent with. */
  async retry(ctx: RequestContext, messageId: number): Promise<Message> {
    const db = tenantDb(ctx);
    const [row] = await db
      .select({ ack: messages.ack, fromMe: messages.fromMe })
      .from(messages, eq(messages.id, messageId));
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    if (!row.fromMe || row.ack !== ACK_FAILED) throw new AppError('ERR_VALIDATION', 409);
    return this.deliver(ctx.companyId, messageId);
  }

  /**
   * Hands a stored message to its connection's session: here when this instance owns it, else
   * to the owner through a command (the answer then carries ack 0 until the owner reports).
   */
  async deliver(companyId: number, messageId: number): Promise<Message> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const outbound = await this.#outbound(db, messageId);
    if (!outbound) throw new AppError('ERR_NOT_FOUND', 404);
    const { connectionId, message } = outbound;
    if (!this.platform.channels.isRunningHere(connectionId)) {
      await this.platform.leases.publish({ connectionId, action: 'send', companyId, messageId });
      return (await messageById(db, messageId, this.platform.storage))!;
    }
    try {
      const sent = await this.platform.channels.send(connectionId, message);
      await db.update(
        messages,
        { providerMessageId: sent.providerMessageId, ack: sent.ack, updatedAt: new Date() },
        eq(messages.id, messageId),
      );
    } catch (error) {
      await db.update(
        messages,
        { ack: ACK_FAILED, updatedAt: new Date() },
        eq(messages.id, messageId),
      );
      await this.#announce(db, companyId, messageId, 'update');
      if (error instanceof ChannelNotRunningError)
        throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);
      throw new AppError('ERR_SENDING_WAPP_MSG', 400);
    }
    return this.#announce(db, companyId, messageId, 'update');
  }

  /**
   * When a session connects, sends what waited for it (ack 0: queued while no instance owned the
   * connection). Only rows older than a few seconds, so a send in flight is not raced.
   */
  async flushPending(companyId: number, connectionId: number): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const pending = await db
      .select({ id: messages.id })
      .from(
        messages,
        and(
          eq(messages.connectionId, connectionId),
          eq(messages.fromMe, true),
          eq(messages.ack, ACK_PENDING),
          // An agent deleted it before it could be sent.
          eq(messages.isDeleted, false),
          lt(messages.createdAt, new Date(Date.now() - PENDING_GRACE_MS)),
        ),
      )
      .orderBy(asc(messages.id))
      .limit(500);
    for (const { id } of pending) await this.deliver(companyId, id).catch(() => {});
  }

  async #outbound(db: TenantDb, messageId: number) {
    const [row] = await db
      .select({
        message: messages,
        number: contacts.number,
        isGroup: contacts.isGroup,
      })
      .from(messages, eq(messages.id, messageId))
      .innerJoin(tickets, eq(tickets.id, messages.ticketId))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId));
    const connectionId = row?.message.connectionId;
    if (!row || !connectionId) return undefined;
    const { message } = row;
    const quoted = message.quotedMsgId
      ? (await db.selectFrom(messages, eq(messages.id, message.quotedMsgId)))[0]
      : undefined;
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
    };
    return { connectionId, message: outbound };
  }

  async #announce(db: TenantDb, companyId: number, messageId: number, action: 'create' | 'update') {
    const message = (await messageById(db, messageId, this.platform.storage))!;
    const ticket = await ticketById(db, message.ticketId);
    if (ticket) this.platform.events.emit('message.saved', { companyId, action, message, ticket });
    return message;
  }
}

function mediaTypeOf(kind: 'image' | 'audio' | 'video' | 'document') {
  return kind === 'document' ? ('application' as const) : kind;
}

function kindOf(mediaType: string): 'image' | 'audio' | 'video' | 'document' {
  return mediaType === 'image' || mediaType === 'audio' || mediaType === 'video'
    ? mediaType
    : 'document';
}
