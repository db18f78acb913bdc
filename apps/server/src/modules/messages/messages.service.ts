import {
  MEDIA_MAX_FILES,
  MEDIA_UPLOAD_TYPES,
  MESSAGES_PAGE_SIZE,
  type Message,
  type MessageCreate,
  type MessageForward,
  type MessageForwardResult,
  MSG,
  messageFormSchema,
  type Ticket,
  whatsappBold,
} from '@atendi/shared';
import type { ReadReceipt } from '../../channels/provider';
import { ChannelNotRunningError } from '../../channels/sessions';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import {
  discardUploads,
  isMultipart,
  type MultipartSource,
  parseFields,
  readUploads,
  type Upload,
} from '../../platform/uploads';
import { contactOf } from '../contacts/contacts.service';
import type { ServiceDeps } from '../deps';
import { companySetting } from '../settings/settings.values';
import { canReadTicket, readableTicket } from '../tickets/tickets.access';
import { type TicketLifecycle, ticketOf, ticketsOf } from '../tickets/tickets.lifecycle';
import type { DeferredCommands } from './messages.deferred';
import { ACK_FAILED, type OutboundDraft, type OutboundSender } from './messages.outbound';
import {
  conversationPage,
  markMessageDeleted,
  markTicketRead,
  messageById,
  messagesToForward,
  messageWithChat,
  presentMessage,
  ticketIdOfMessage,
} from './messages.repository';
import { resolveVariables } from './messages.variables';

const MEDIA_RULES = {
  fileFields: ['medias'],
  maxFiles: MEDIA_MAX_FILES,
  types: MEDIA_UPLOAD_TYPES,
};

/** Read receipts sent at most per opening of a ticket (per connection), newest kept. */
const READ_RECEIPTS_MAX = 50;

function kindOf(mimeType: string): NonNullable<OutboundDraft['media']>['kind'] {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return 'document';
}

export class MessagesService {
  constructor(
    private readonly platform: Pick<ServiceDeps, 'events' | 'storage' | 'channels'>,
    private readonly outbound: Pick<OutboundSender, 'send' | 'retry'>,
    private readonly deferred: Pick<DeferredCommands, 'markRead' | 'deleteLater'>,
    private readonly tickets: Pick<TicketLifecycle, 'liveTicket' | 'announceOpened'>,
  ) {}

  /**
   * A page of the conversation, newest page first and each page in the order it was written.
   * The conversation is the ticket's messages after those of its contact's earlier tickets
   * (each message names its ticket, so the screen marks where one ended and the next began).
   * Opening a ticket reads it: its unread count goes to zero and the lists are told.
   */
  async list(ctx: RequestContext, ticketId: number, pageNumber: number) {
    let ticket = await readableTicket(ctx, { id: ticketId });
    const db = tenantDb(ctx);
    const { limit, offset } = page(pageNumber, MESSAGES_PAGE_SIZE);
    const { rows, count } = await conversationPage(db, ticket, { limit, offset });
    const { rows: pageRows, hasMore } = sliceMore(rows, MESSAGES_PAGE_SIZE);
    if (ticket.unreadMessages > 0) ticket = await this.#markRead(ctx, ticket);
    return {
      messages: pageRows.reverse().map((row) => presentMessage(row, this.platform.storage)),
      ticket,
      count,
      hasMore,
    };
  }

  /**
   * An agent's reply, as JSON or as a form with files, sent through the ticket's connection.
   * Files are each a message (the text is the first one's caption).
   */
  async send(
    ctx: RequestContext,
    ticketId: number,
    input: MessageCreate | MultipartSource,
  ): Promise<Message | Message[]> {
    const ticket = await readableTicket(ctx, { id: ticketId });
    if (!ticket.whatsappId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);
    let draft: MessageCreate;
    let files: Upload[] = [];
    if (isMultipart(input)) {
      const form = await readUploads(input, this.platform.storage, ctx.companyId, MEDIA_RULES);
      files = form.files;
      try {
        draft = parseFields(messageFormSchema, form.fields);
      } catch (error) {
        await discardUploads(this.platform.storage, files);
        throw error;
      }
    } else {
      draft = input;
    }

    const text = draft.body.trim();
    if (!text && files.length === 0) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.body', message: MSG.required }],
      });
    }
    const body = await this.#compose(ctx, ticket, text, draft.signMessage);
    const quotedMsgId = draft.quotedMsg?.id ?? null;
    if (files.length === 0) return this.outbound.send(ctx, ticketId, { body, quotedMsgId });

    const sent: Message[] = [];
    for (const [index, file] of files.entries()) {
      try {
        sent.push(
          await this.outbound.send(ctx, ticketId, {
            body: index === 0 ? body : '',
            quotedMsgId: index === 0 ? quotedMsgId : null,
            media: {
              key: file.key,
              mimeType: file.mimeType,
              fileName: file.fileName,
              kind: kindOf(file.mimeType),
            },
          }),
        );
      } catch (error) {
        // The failed file belongs to its stored message (kept for a retry); the rest were never sent.
        await discardUploads(this.platform.storage, files.slice(index + 1));
        throw error;
      }
    }
    return sent;
  }

  /**
   * Copies messages the caller may read, in the order they were written, into an open ticket
   * the caller may write to, or into a contact's live ticket on the first message's connection
   * (opened in the caller's hands when there is none). Each copy is marked forwarded and goes
   * out through the outbound sender; a file is copied on the server, never uploaded again. A
   * copy that fails to send stops the rest, so the contact never reads them out of order.
   */
  async forward(ctx: RequestContext, input: MessageForward): Promise<MessageForwardResult> {
    const db = tenantDb(ctx);
    const sources = await messagesToForward(db, input.messageIds);
    if (sources.length !== input.messageIds.length) throw new AppError('ERR_NOT_FOUND', 404);
    for (const source of sources) {
      const { isDeleted, mediaType } = source.message;
      if (isDeleted || mediaType === 'call_log') {
        throw new AppError('ERR_VALIDATION', 400, {
          fields: [
            {
              path: 'body.messageIds',
              message: `Message ${source.message.id} cannot be forwarded`,
            },
          ],
        });
      }
    }
    const checked = new Set<number>();
    for (const source of sources) {
      if (checked.has(source.message.ticketId)) continue;
      await this.#mayRead(ctx, source);
      checked.add(source.message.ticketId);
    }
    const ticket = await this.#forwardTarget(ctx, input, sources[0]!.whatsappId);
    if (!ticket.whatsappId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);

    const sent: Message[] = [];
    for (const { message } of sources) {
      const media = message.mediaPath
        ? await this.platform.storage.copy(message.mediaPath, ctx.companyId)
        : undefined;
      sent.push(
        await this.outbound.send(ctx, ticket.id, {
          body: message.body,
          forwarded: true,
          ...(media
            ? {
                media: {
                  key: media.key,
                  mimeType: message.mediaMime ?? 'application/octet-stream',
                  fileName: message.mediaName ?? 'file',
                  kind: kindOf(message.mediaMime ?? ''),
                },
              }
            : {}),
        }),
      );
    }
    return { ticket: (await ticketOf(db, ticket.id)) ?? ticket, messages: sent };
  }

  /**
   * Whether the caller may read a message: its ticket is readable, or a later ticket of its
   * contact on the same connection is (whose conversation shows it as history).
   */
  async #mayRead(
    ctx: RequestContext,
    source: { message: { ticketId: number }; contactId: number; whatsappId: number | null },
  ) {
    const ticketId = source.message.ticketId;
    const refused = await readableTicket(ctx, { id: ticketId }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!refused) return;
    if (!(refused instanceof AppError) || refused.statusCode !== 403) throw refused;
    const later = (await ticketsOf(tenantDb(ctx), source.contactId)).filter(
      (ticket) => ticket.id > ticketId && ticket.whatsappId === source.whatsappId,
    );
    for (const ticket of later) if (await canReadTicket(ctx, ticket.id)) return;
    throw forbidden();
  }

  /** The ticket a forward goes into: one named (live, readable) or the contact's live one. */
  async #forwardTarget(
    ctx: RequestContext,
    input: MessageForward,
    connectionId: number | null,
  ): Promise<Ticket> {
    if ('ticketId' in input) {
      const ticket = await readableTicket(ctx, { id: input.ticketId });
      if (ticket.status === 'closed') {
        throw new AppError('ERR_VALIDATION', 400, {
          fields: [{ path: 'body.ticketId', message: 'The ticket is closed' }],
        });
      }
      return ticket;
    }
    const db = tenantDb(ctx);
    const contact = await contactOf(db, input.contactId);
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 404);
    if (!connectionId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 400);
    const { ticket, opened } = await this.tickets.liveTicket(db, {
      contact,
      whatsappId: connectionId,
      userId: ctx.userId,
    });
    await this.tickets.announceOpened(db, { ticketId: ticket.id, opened });
    // A conversation already in someone else's hands stays theirs.
    return opened ? ticket : readableTicket(ctx, { id: ticket.id });
  }

  /** Sends a message that failed (ack 0) again, under the id it was first sent with. */
  async retry(ctx: RequestContext, id: number): Promise<Message> {
    const ticketId = await ticketIdOfMessage(tenantDb(ctx), id);
    if (ticketId === undefined) throw new AppError('ERR_NOT_FOUND', 404);
    await readableTicket(ctx, { id: ticketId });
    return this.outbound.retry(ctx, id);
  }

  /**
   * Deletes a sent message for everyone through the connection; the row stays, marked deleted,
   * so the conversation keeps its history.
   */
  async remove(ctx: RequestContext, id: number): Promise<Message> {
    const db = tenantDb(ctx);
    const row = await messageWithChat(db, id);
    if (!row) throw new AppError('ERR_NOT_FOUND', 404);
    const { message } = row;
    const ticket = await readableTicket(ctx, { id: message.ticketId });
    if (!message.isDeleted) {
      if (!message.fromMe) throw new AppError('ERR_DELETE_WAPP_MSG', 400);
      // A message the network never took (failed, or still waiting) has nothing to delete there.
      if (
        message.providerMessageId &&
        message.ack !== ACK_FAILED &&
        message.sendState !== 'pending'
      ) {
        if (!message.connectionId) throw new AppError('ERR_DELETE_WAPP_MSG', 400);
        // Through the connection's owner, here or on another instance (its answer awaited);
        // with no owner at the moment (a takeover), the next one deletes it. A connection
        // switched off deletes nothing: the agent is told.
        const connectionId = message.connectionId;
        const target = { chatId: row.chatId, providerMessageId: message.providerMessageId };
        await this.platform.channels
          .deleteMessage(connectionId, { ...target, fromMe: true })
          .catch(async (error: unknown) => {
            const kept =
              error instanceof ChannelNotRunningError &&
              (await this.deferred.deleteLater(ctx.companyId, connectionId, {
                ...target,
                fromMe: true,
              }));
            if (!kept) throw new AppError('ERR_DELETE_WAPP_MSG', 400);
          });
      }
      await markMessageDeleted(db, id);
    }
    const deleted = (await messageById(db, id, this.platform.storage))!;
    this.platform.events.emit('message.saved', {
      companyId: ctx.companyId,
      action: 'update',
      message: deleted,
      ticket: (await ticketOf(db, ticket.id)) ?? ticket,
    });
    return deleted;
  }

  /** Variables filled in, then the agent's name in bold when signing. */
  async #compose(ctx: RequestContext, ticket: Ticket, text: string, sign: boolean) {
    if (!text) return '';
    const resolved = resolveVariables(text, {
      contactName: ticket.contact.name,
      ticketId: ticket.id,
      ticketCreatedAt: new Date(ticket.createdAt),
      timeZone: text.includes('{{') ? await companySetting(tenantDb(ctx), 'timezone') : undefined,
    });
    return sign ? `${whatsappBold(ctx.name)}:\n${resolved}` : resolved;
  }

  async #markRead(ctx: RequestContext, ticket: Ticket): Promise<Ticket> {
    const db = tenantDb(ctx);
    // Reading is not activity: the ticket keeps its place in the lists.
    const seen = await markTicketRead(db, ticket.id);
    const read = (await ticketOf(db, ticket.id)) ?? { ...ticket, unreadMessages: 0 };
    this.platform.events.emit('ticket.saved', {
      companyId: ctx.companyId,
      action: 'updateUnread',
      ticket: read,
    });
    this.#sendReadReceipts(ctx.companyId, read, seen);
    return read;
  }

  /**
   * Tells the contact's phone its messages were read, through the connection each came by. In
   * the background: the agent's screen never waits for the network, nor fails with it.
   */
  #sendReadReceipts(
    companyId: number,
    ticket: Ticket,
    seen: {
      id: number;
      connectionId: number | null;
      providerMessageId: string | null;
      participant: string | null;
    }[],
  ) {
    const byConnection = new Map<number, ReadReceipt['messages']>();
    for (const row of seen.sort((a, b) => a.id - b.id)) {
      if (!row.connectionId || !row.providerMessageId) continue;
      const list = byConnection.get(row.connectionId) ?? [];
      list.push({
        providerMessageId: row.providerMessageId,
        ...(row.participant ? { participant: row.participant } : {}),
      });
      byConnection.set(row.connectionId, list);
    }
    for (const [connectionId, list] of byConnection) {
      this.deferred.markRead(companyId, connectionId, {
        chatId: ticket.contact.number,
        isGroup: ticket.isGroup,
        // The newest ones: what the phone shows, and a command small enough to publish.
        messages: list.slice(-READ_RECEIPTS_MAX),
      });
    }
  }
}
