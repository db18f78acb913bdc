import { ACK, MEDIA_TYPES } from '@atendi/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { connections } from './connections';
import { tickets } from './tickets';

export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyIdColumn(),
    ticketId: integer('ticket_id').notNull(),
    contactId: integer('contact_id'),
    connectionId: integer('connection_id').references(() => connections.id, {
      onDelete: 'set null',
    }),
    /** The provider's id for the message; unique per connection, never a global key. */
    providerMessageId: text('provider_message_id'),
    body: text('body').notNull().default(''),
    fromMe: boolean('from_me').notNull().default(false),
    read: boolean('read').notNull().default(false),
    mediaType: text('media_type', { enum: MEDIA_TYPES }).notNull().default('chat'),
    /** Storage key of the media file (a generated name), never a path from the sender. */
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    ack: smallint('ack').notNull().default(ACK.pending),
    /**
     * Outbound only: 'pending' (waiting for a send), 'sending' (claimed by one instance),
     * 'sent', 'failed' (safe to send again) or 'unknown' (the network may have taken it: a person
     * decides whether to send again).
     */
    sendState: text('send_state', {
      enum: ['pending', 'sending', 'sent', 'failed', 'unknown'],
    }),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isEdited: boolean('is_edited').notNull().default(false),
    /** An agent's copy of another message (WhatsApp shows it as forwarded where it can). */
    isForwarded: boolean('is_forwarded').notNull().default(false),
    quotedMsgId: bigint('quoted_msg_id', { mode: 'number' }),
    participant: text('participant'),
    ...timestamps,
  },
  (t) => [
    // Newest ticket first: a conversation spans its contact's tickets, read as one page walk.
    index('messages_ticket_created_idx').on(t.ticketId.desc(), t.createdAt.desc(), t.id.desc()),
    index('messages_company_idx').on(t.companyId),
    // What opening a ticket marks as read.
    index('messages_ticket_unread_idx')
      .on(t.ticketId)
      .where(sql`${t.read} = false and ${t.fromMe} = false`),
    uniqueIndex('messages_connection_provider_id_key')
      .on(t.connectionId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
  ],
);
