import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps, tsvector } from './columns';
import { companies } from './companies';
import { connections } from './connections';
import { contacts } from './contacts';
import { queues } from './queues';
import { users } from './users';

export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    companyId: companyIdColumn(),
    status: text('status', { enum: ['pending', 'open', 'closed'] })
      .notNull()
      .default('pending'),
    contactId: integer('contact_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => connections.id, { onDelete: 'set null' }),
    lastMessage: text('last_message').notNull().default(''),
    unreadMessages: integer('unread_messages').notNull().default(0),
    isGroup: boolean('is_group').notNull().default(false),
    chatbot: boolean('chatbot').notNull().default(false),
    useIntegration: boolean('use_integration').notNull().default(false),
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    /** When the AI handed the ticket to a person: no prompt answers it any more. */
    aiHandedOverAt: timestamp('ai_handed_over_at', { withTimezone: true }),
    queueOptionId: integer('queue_option_id'),
    amountUsedBotQueues: integer('amount_used_bot_queues').notNull().default(0),
    /** The last inbound message the bot has answered: later ones are its next turn. */
    botMessageId: bigint('bot_message_id', { mode: 'number' }),
    /** When the bot took the ticket, and when it last spoke; null once a person has it. */
    botSince: timestamp('bot_since', { withTimezone: true }),
    botAt: timestamp('bot_at', { withTimezone: true }),
    /** The end of the closed period the out-of-hours message was sent for (sent once per period). */
    outOfHoursUntil: timestamp('out_of_hours_until', { withTimezone: true }),
    /** When a person first took the ticket, and when it was last closed (the dashboard's times). */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Closed with a rating asked and not yet answered: the contact's 1-3 lands here. */
    ratingRequestedAt: timestamp('rating_requested_at', { withTimezone: true }),
    /**
     * The ticket's kanban lane: its kanban tag's id (the oldest tag's, when it carries several),
     * 0 for 'Em aberto' (OPEN_LANE). Kept by triggers on ticket_tags and tags (migration 0027),
     * never written by the application.
     */
    kanbanLane: integer('kanban_lane').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_uuid_key').on(t.uuid),
    unique('tickets_company_id_key').on(t.companyId, t.id),
    // The lists: by status, by queue and by agent, newest first.
    index('tickets_company_status_updated_id_idx').on(
      t.companyId,
      t.status,
      t.updatedAt.desc(),
      t.id.desc(),
    ),
    index('tickets_company_queue_status_updated_idx').on(
      t.companyId,
      t.queueId,
      t.status,
      t.updatedAt.desc(),
    ),
    index('tickets_company_user_status_updated_idx').on(
      t.companyId,
      t.userId,
      t.status,
      t.updatedAt.desc(),
    ),
    // Counts by status: deduplicated, so counting a status's many rows reads a small index.
    index('tickets_company_status_idx').on(t.companyId, t.status),
    index('tickets_company_updated_idx').on(t.companyId, t.updatedAt.desc(), t.id.desc()),
    index('tickets_company_created_idx').on(t.companyId, t.createdAt),
    // The dashboard's closed tickets of a period. Migration 0013 gives it INCLUDE (user_id,
    // accepted_at, created_at), which drizzle cannot declare, so the figures are read from the
    // index alone.
    index('tickets_company_finished_idx')
      .on(t.companyId, t.finishedAt)
      .where(sql`${t.finishedAt} is not null`),
    index('tickets_company_unread_idx')
      .on(t.companyId, t.updatedAt.desc())
      .where(sql`${t.unreadMessages} > 0`),
    index('tickets_contact_idx').on(t.companyId, t.contactId),
    // The timers' sweeps read only the few tickets a bot holds or a rating waits on.
    index('tickets_bot_at_idx').on(t.botAt).where(sql`${t.botAt} is not null`),
    index('tickets_rating_requested_idx')
      .on(t.contactId, t.whatsappId)
      .where(sql`${t.ratingRequestedAt} is not null`),
    // The kanban board: a lane's live tickets, newest first, one index walk per lane.
    index('tickets_company_lane_updated_idx')
      .on(t.companyId, t.kanbanLane, t.updatedAt.desc(), t.id.desc())
      .where(sql`${t.status} in ('open', 'pending')`),
    // At most one live ticket per contact and connection, whatever races the inbound path runs.
    uniqueIndex('tickets_one_live_per_contact')
      .on(t.contactId, t.whatsappId)
      .where(sql`${t.status} in ('open', 'pending')`),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.contactId],
      foreignColumns: [contacts.companyId, contacts.id],
    }).onDelete('cascade'),
  ],
);

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    note: text('note').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ticketId: integer('ticket_id').notNull(),
    contactId: integer('contact_id').notNull(),
    ...timestamps,
  },
  (t) => [
    index('ticket_notes_ticket_idx').on(t.companyId, t.ticketId),
    index('ticket_notes_contact_idx').on(t.companyId, t.contactId),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.contactId],
      foreignColumns: [contacts.companyId, contacts.id],
    }).onDelete('cascade'),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    color: text('color').notNull().default('#5C59A0'),
    kanban: integer('kanban').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tags_company_name_key').on(t.companyId, t.name),
    unique('tags_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

export const ticketTags = pgTable(
  'ticket_tags',
  {
    companyId: companyIdColumn(),
    ticketId: integer('ticket_id').notNull(),
    tagId: integer('tag_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    index('ticket_tags_tag_idx').on(t.tagId, t.ticketId),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.tagId],
      foreignColumns: [tags.companyId, tags.id],
    }).onDelete('cascade'),
  ],
);

/**
 * What the ticket search looks in: the words of a ticket's contact name, every part of the
 * contact's number, and the words of its messages, in chunks of at most 200 distinct words, so a
 * new message rewrites (and indexes again) one small chunk, never the whole conversation's words.
 * Kept by PostgreSQL triggers on tickets, messages and contacts (migrations 0004 and 0005), so
 * every way of writing them keeps it current; a bulk load may skip the messages' one and build
 * its tickets' chunks afterwards (migration 0034, the Whaticket import).
 */
export const ticketSearchDocuments = pgTable(
  'ticket_search',
  {
    ticketId: integer('ticket_id').notNull(),
    chunk: integer('chunk').notNull().default(0),
    companyId: companyIdColumn(),
    document: tsvector('document').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.chunk] }),
    index('ticket_search_document_idx').using('gin', t.companyId, t.document),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
  ],
);

/** A contact's answer to the rating question of a closed ticket: 1 to 3, once per ticket. */
export const userRatings = pgTable(
  'user_ratings',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    ticketId: integer('ticket_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    rate: smallint('rate').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_ratings_ticket_key').on(t.ticketId),
    index('user_ratings_company_user_idx').on(t.companyId, t.userId, t.createdAt),
    // user_ratings_company_created_idx (company_id, created_at) INCLUDE (user_id, rate): the
    // dashboard's ratings of a period; by hand in migration 0013 (drizzle cannot declare INCLUDE).
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The closed tickets of each day on the company's clock, per user (0: none): what the dashboard
 * sums, so a period of 90 days reads at most 90 rows per user, not every ticket closed in it.
 * Kept by triggers (migration 0014): a ticket's closing, reopening, deletion or change of user
 * moves its figures, and a change of the company's `timezone` setting counts its days again.
 */
export const ticketDayStats = pgTable(
  'ticket_day_stats',
  {
    companyId: companyIdColumn(),
    day: date('day').notNull(),
    userId: integer('user_id').notNull().default(0),
    finished: integer('finished').notNull().default(0),
    supportSeconds: doublePrecision('support_seconds').notNull().default(0),
    supported: integer('supported').notNull().default(0),
    waitSeconds: doublePrecision('wait_seconds').notNull().default(0),
    waited: integer('waited').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.day, t.userId] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);
