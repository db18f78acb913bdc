import { ACK, type MediaType, type Message } from '@atendi/shared';
import type {
  AckUpdate,
  ConnectionRef,
  InboundChange,
  InboundMessage,
  MessageKind,
} from '../../channels/provider';
import { isUniqueViolation } from '../../db/errors';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { ContactAvatars } from '../contacts/contacts.avatars';
import { contactOf } from '../contacts/contacts.service';
import type { ServiceDeps } from '../deps';
import { companySetting } from '../settings/settings.values';
import { ticketOf } from '../tickets/tickets.lifecycle';
import { InboundBatches } from './messages.inbound.batches';
import { adoptLid, type InboundRow, type StoredInboundRow } from './messages.inbound.repository';
import { previewOf } from './messages.preview';
import { applyPhoneChange, isKnownMessage, messageById, raiseAck } from './messages.repository';

const MEDIA_TYPE: Record<MessageKind, MediaType> = {
  text: 'chat',
  image: 'image',
  audio: 'audio',
  video: 'video',
  document: 'application',
  location: 'locationMessage',
  contact: 'vcard',
  call_log: 'call_log',
  reaction: 'chat',
};

/** What a ticket's list line shows for a message. */
export function preview(message: Pick<InboundMessage, 'kind' | 'body'>): string {
  return previewOf({ mediaType: MEDIA_TYPE[message.kind], body: message.body });
}

/** 'ignored': a group conversation the company does not take (CheckMsgIsGroup). */
export type InboundResult = 'stored' | 'duplicate' | 'ignored';

/**
 * Stores what a provider receives: idempotent on (connection, provider message id), race-free
 * contact and ticket creation (unique keys and ON CONFLICT), messages of a company that arrive
 * together stored by one statement (InboundBatches), and the provider is answered only when
 * this resolves, i.e. after the commit.
 */
export class InboundPipeline {
  readonly #avatars: ContactAvatars;
  readonly #batches = new InboundBatches();

  constructor(
    private readonly platform: Pick<ServiceDeps, 'db' | 'events' | 'storage' | 'channels'>,
  ) {
    this.#avatars = new ContactAvatars(platform);
  }

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  async receive(connection: ConnectionRef, message: InboundMessage): Promise<InboundResult> {
    const db = this.#db(connection.companyId);
    // Whatever the provider: a company that ignores groups never stores their messages.
    if (message.isGroup && (await companySetting(db, 'CheckMsgIsGroup')) === 'enabled') {
      return 'ignored';
    }
    // A redelivered media message must not store its file again.
    if (message.media && (await isKnownMessage(db, connection.id, message.providerMessageId))) {
      return 'duplicate';
    }
    const stored = message.media
      ? await this.platform.storage.save(
          connection.companyId,
          message.media.mimeType,
          await message.media.open(),
        )
      : undefined;
    let saved: StoredInboundRow | undefined;
    try {
      saved = await this.#store(db, connection, message, stored?.key);
    } finally {
      if (!saved && stored) await this.platform.storage.remove(stored.key);
    }
    if (!saved) return 'duplicate';

    const { mediaPath: path, ...fields } = saved.message;
    const stored_: Message = {
      ...fields,
      mediaUrl: path ? this.platform.storage.signedPath(path) : null,
    };
    const { companyId } = connection;
    // A contact first met through this message is told as new before its message.
    for (const id of saved.created_contacts) {
      const contact = await contactOf(db, id);
      if (contact)
        this.platform.events.emit('contact.saved', { companyId, action: 'create', contact });
    }
    this.platform.events.emit('message.saved', {
      companyId,
      action: 'create',
      message: stored_,
      ticket: saved.ticket,
      ...(saved.follow_up ? { followUp: saved.follow_up } : {}),
    });
    this.platform.events.emit('ticket.saved', {
      companyId,
      action: 'update',
      ticket: saved.ticket,
    });
    // After the commit and off the message's way: a contact first seen gets its picture.
    this.#avatars.refresh(connection, saved.ticket.contact);
    return 'stored';
  }

  async #store(
    db: TenantDb,
    connection: ConnectionRef,
    message: InboundMessage,
    mediaPath: string | undefined,
  ): Promise<StoredInboundRow | undefined> {
    const row: InboundRow = {
      connectionId: connection.id,
      chatNumber: message.chatId,
      chatName: message.isGroup
        ? (message.groupName ?? message.chatId)
        : (message.contact.name ?? ''),
      chatLid: message.isGroup ? null : (message.contact.lid ?? null),
      isGroup: message.isGroup,
      senderNumber: message.contact.number,
      senderName: message.contact.name ?? '',
      senderLid: message.contact.lid ?? null,
      providerMessageId: message.providerMessageId,
      body: message.body,
      fromMe: message.fromMe,
      mediaType: MEDIA_TYPE[message.kind],
      mediaPath: mediaPath ?? null,
      mediaName: message.media?.fileName?.slice(0, 255) ?? null,
      mediaMime: message.media?.mimeType ?? null,
      // Typed on the phone, it is sent; a contact's message reached the company: delivered.
      ack: message.fromMe ? ACK.sent : ACK.delivered,
      quotedProviderMessageId: message.quotedProviderMessageId ?? null,
      participant: message.isGroup ? message.contact.number : null,
      sentAt: message.timestamp,
      preview: preview(message),
      unreadIncrement: message.fromMe ? 0 : 1,
    };
    const { lid } = message.contact;
    if (!message.isGroup && lid && lid !== message.chatId) {
      await adoptLid(db, message.chatId, lid).catch((error: unknown) => {
        // A concurrent delivery gave the number to another row first: keep that one.
        if (!isUniqueViolation(error)) throw error;
      });
    }
    // Stored with the messages of the company's other chats that arrive meanwhile.
    return this.#batches.store(db, row);
  }

  /** Ticks from the network; they only move forward. */
  async ack(connection: ConnectionRef, update: AckUpdate): Promise<void> {
    const db = this.#db(connection.companyId);
    const row = await raiseAck(db, connection.id, update.providerMessageId, update.ack);
    if (row) await this.#announce(db, connection.companyId, row.id, row.ticketId);
  }

  async change(connection: ConnectionRef, change: InboundChange): Promise<void> {
    const db = this.#db(connection.companyId);
    const row = await applyPhoneChange(
      db,
      connection.id,
      change.providerMessageId,
      change.type === 'edit' ? { body: change.body, isEdited: true } : { isDeleted: true },
    );
    if (row) await this.#announce(db, connection.companyId, row.id, row.ticketId);
  }

  async #announce(db: TenantDb, companyId: number, messageId: number, ticketId: number) {
    const [message, ticket] = await Promise.all([
      messageById(db, messageId, this.platform.storage),
      ticketOf(db, ticketId),
    ]);
    if (message && ticket) {
      this.platform.events.emit('message.saved', { companyId, action: 'update', message, ticket });
    }
  }
}
