import type { MediaType } from '@atendi/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Platform } from '../../app';
import type {
  AckUpdate,
  ConnectionRef,
  InboundChange,
  InboundMessage,
  MessageKind,
} from '../../channels/provider';
import { contacts, messages, tickets } from '../../db/schema';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { ticketById } from '../tickets/tickets.repository';
import { messageById } from './messages.repository';

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
export function preview(message: Pick<InboundMessage, 'kind' | 'body' | 'media'>): string {
  if (message.body) return message.body.slice(0, 255);
  const labels: Partial<Record<MessageKind, string>> = {
    image: '📷 Imagem',
    audio: '🎵 Áudio',
    video: '🎥 Vídeo',
    document: `📄 ${message.media?.fileName ?? 'Documento'}`,
    location: '📍 Localização',
    contact: '👤 Contato',
    call_log: '📞 Chamada',
  };
  return labels[message.kind] ?? '';
}

export type InboundResult = 'stored' | 'duplicate';

/**
 * Stores what a provider receives: idempotent on (connection, provider message id), race-free
 * contact and ticket creation (unique keys and ON CONFLICT), and the provider is answered only
 * when this resolves, i.e. after the commit.
 */
export class InboundPipeline {
  constructor(private readonly platform: Pick<Platform, 'db' | 'events' | 'storage'>) {}

  #db(companyId: number): TenantDb {
    return tenantDb(systemContext(this.platform.db, companyId));
  }

  async receive(connection: ConnectionRef, message: InboundMessage): Promise<InboundResult> {
    const db = this.#db(connection.companyId);
    if (await this.#known(db, connection.id, message.providerMessageId)) return 'duplicate';

    const stored = message.media
      ? await this.platform.storage.save(
          connection.companyId,
          message.media.mimeType,
          await message.media.open(),
        )
      : undefined;
    let saved: { ticketId: number; messageId: number } | undefined;
    try {
      saved = await db.transaction((tx) => this.#store(tx, connection, message, stored?.key));
    } finally {
      if (!saved && stored) await this.platform.storage.remove(stored.key);
    }
    if (!saved) return 'duplicate';

    const [ticket, stored_] = await Promise.all([
      ticketById(db, saved.ticketId),
      messageById(db, saved.messageId, this.platform.storage),
    ]);
    if (ticket && stored_) {
      this.platform.events.emit('message.saved', {
        companyId: connection.companyId,
        action: 'create',
        message: stored_,
        ticket,
      });
      this.platform.events.emit('ticket.saved', {
        companyId: connection.companyId,
        action: 'update',
        ticket,
      });
    }
    return 'stored';
  }

  async #known(db: TenantDb, connectionId: number, providerMessageId: string) {
    const found = await db.count(
      messages,
      and(
        eq(messages.connectionId, connectionId),
        eq(messages.providerMessageId, providerMessageId),
      ),
    );
    return found > 0;
  }

  async #store(
    tx: TenantDb,
    connection: ConnectionRef,
    message: InboundMessage,
    mediaPath: string | undefined,
  ) {
    const chatContact = await this.#upsertContact(tx, {
      number: message.chatId,
      name: message.isGroup ? (message.groupName ?? message.chatId) : message.contact.name,
      lid: message.isGroup ? undefined : message.contact.lid,
      isGroup: message.isGroup,
      connectionId: connection.id,
    });
    const sender = message.isGroup
      ? await this.#upsertContact(tx, {
          number: message.contact.number,
          name: message.contact.name,
          lid: message.contact.lid,
          isGroup: false,
          connectionId: connection.id,
        })
      : chatContact;

    // One live ticket per contact and connection: the partial unique index decides races.
    const [ticket] = await tx
      .insert(tickets, {
        contactId: chatContact.id,
        whatsappId: connection.id,
        status: 'pending',
        isGroup: message.isGroup,
      })
      .onConflictDoUpdate({
        target: [tickets.contactId, tickets.whatsappId],
        targetWhere: sql`status in ('open', 'pending')`,
        set: { updatedAt: sql`${tickets.updatedAt}` },
      })
      .returning({ id: tickets.id });

    const quotedMsgId = message.quotedProviderMessageId
      ? await this.#messageId(tx, connection.id, message.quotedProviderMessageId)
      : null;
    const [inserted] = await tx
      .insert(messages, {
        ticketId: ticket!.id,
        contactId: sender.id,
        connectionId: connection.id,
        providerMessageId: message.providerMessageId,
        body: message.body,
        fromMe: message.fromMe,
        read: message.fromMe,
        mediaType: MEDIA_TYPE[message.kind],
        mediaPath: mediaPath ?? null,
        mediaName: message.media?.fileName?.slice(0, 255) ?? null,
        mediaMime: message.media?.mimeType ?? null,
        ack: message.fromMe ? 1 : 0,
        quotedMsgId,
        participant: message.isGroup ? message.contact.number : null,
        createdAt: message.timestamp,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
    if (!inserted) return undefined;

    await tx.update(
      tickets,
      {
        lastMessage: preview(message),
        unreadMessages: message.fromMe
          ? sql`${tickets.unreadMessages}`
          : sql`${tickets.unreadMessages} + 1`,
        updatedAt: new Date(),
      },
      eq(tickets.id, ticket!.id),
    );
    return { ticketId: ticket!.id, messageId: inserted.id };
  }

  /** One contact per number per company; a known LID finds the contact its number belongs to. */
  async #upsertContact(
    tx: TenantDb,
    contact: {
      number: string;
      name?: string;
      lid?: string;
      isGroup: boolean;
      connectionId: number;
    },
  ) {
    if (contact.lid) {
      const [byLid] = await tx
        .select({ id: contacts.id })
        .from(contacts, eq(contacts.lid, contact.lid))
        .limit(1);
      if (byLid && !/^\d+$/.test(contact.number)) return byLid;
    }
    const [row] = await tx
      .insert(contacts, {
        number: contact.number,
        name: contact.name?.trim() || contact.number,
        lid: contact.lid ?? null,
        isGroup: contact.isGroup,
        whatsappId: contact.connectionId,
      })
      .onConflictDoUpdate({
        target: [contacts.companyId, contacts.number],
        set: {
          // A name someone typed is kept; a contact still named by its number takes the push name.
          name: sql`case when ${contacts.name} = ${contacts.number} and excluded.name <> '' then excluded.name else ${contacts.name} end`,
          lid: sql`coalesce(excluded.lid, ${contacts.lid})`,
        },
      })
      .returning({ id: contacts.id });
    return row!;
  }

  async #messageId(tx: TenantDb, connectionId: number, providerMessageId: string) {
    const [row] = await tx
      .select({ id: messages.id })
      .from(
        messages,
        and(
          eq(messages.connectionId, connectionId),
          eq(messages.providerMessageId, providerMessageId),
        ),
      )
      .limit(1);
    return row?.id ?? null;
  }

  /** Ticks from the network; they only move forward. */
  async ack(connection: ConnectionRef, update: AckUpdate): Promise<void> {
    const db = this.#db(connection.companyId);
    const [row] = await db
      .update(
        messages,
        { ack: sql`greatest(${messages.ack}, ${update.ack})`, updatedAt: new Date() },
        and(
          eq(messages.connectionId, connection.id),
          eq(messages.providerMessageId, update.providerMessageId),
          sql`${messages.ack} < ${update.ack}`,
        )!,
      )
      .returning({ id: messages.id, ticketId: messages.ticketId });
    if (row) await this.#announce(db, connection.companyId, row.id, row.ticketId);
  }

  async change(connection: ConnectionRef, change: InboundChange): Promise<void> {
    const db = this.#db(connection.companyId);
    const where = and(
      eq(messages.connectionId, connection.id),
      eq(messages.providerMessageId, change.providerMessageId),
    )!;
    const set =
      change.type === 'edit'
        ? { body: change.body, isEdited: true, updatedAt: new Date() }
        : { isDeleted: true, updatedAt: new Date() };
    const [row] = await db
      .update(messages, set, where)
      .returning({ id: messages.id, ticketId: messages.ticketId });
    if (row) await this.#announce(db, connection.companyId, row.id, row.ticketId);
  }

  async #announce(db: TenantDb, companyId: number, messageId: number, ticketId: number) {
    const [message, ticket] = await Promise.all([
      messageById(db, messageId, this.platform.storage),
      ticketById(db, ticketId),
    ]);
    if (message && ticket) {
      this.platform.events.emit('message.saved', { companyId, action: 'update', message, ticket });
    }
  }
}
