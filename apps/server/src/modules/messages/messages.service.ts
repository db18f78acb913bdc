import {
  MEDIA_MAX_FILES,
  MEDIA_UPLOAD_TYPES,
  MESSAGES_PAGE_SIZE,
  type Message,
  type MessageCreate,
  MSG,
  messageFormSchema,
  type Ticket,
} from '@atendi/shared';
import type { ReadReceipt } from '../../channels/provider';
import { ChannelNotRunningError } from '../../channels/sessions';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import {
  discardUploads,
  isMultipart,
  type MultipartSource,
  parseFields,
  readUploads,
  type Upload,
} from '../../platform/uploads';
import type { ServiceDeps } from '../deps';
import { readableTicket } from '../tickets/tickets.access';
import { companySetting, ticketById } from '../tickets/tickets.repository';
import type { DeferredCommands } from './messages.deferred';
import { ACK_FAILED, type OutboundDraft, type OutboundSender } from './messages.outbound';
import {
  conversationPage,
  markMessageDeleted,
  markTicketRead,
  messageById,
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
      ticket: (await ticketById(db, ticket.id)) ?? ticket,
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
    return sign ? `*${ctx.name}*:\n${resolved}` : resolved;
  }

  async #markRead(ctx: RequestContext, ticket: Ticket): Promise<Ticket> {
    const db = tenantDb(ctx);
    // Reading is not activity: the ticket keeps its place in the lists.
    const seen = await markTicketRead(db, ticket.id);
    const read = (await ticketById(db, ticket.id)) ?? { ...ticket, unreadMessages: 0 };
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
