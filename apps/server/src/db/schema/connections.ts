import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { queues } from './queues';

/** Messaging-app connections ('whatsapps' in the spec's routes). */
export const connections = pgTable(
  'connections',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    provider: text('provider').notNull().default('beta'),
    status: text('status').notNull().default('DISCONNECTED'),
    qrcode: text('qrcode').notNull().default(''),
    number: text('number').notNull().default(''),
    retries: integer('retries').notNull().default(0),
    isDefault: boolean('is_default').notNull().default(false),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    expiresInactiveMessage: text('expires_inactive_message').notNull().default(''),
    expiresTicket: integer('expires_ticket').notNull().default(0),
    timeUseBotQueues: integer('time_use_bot_queues').notNull().default(0),
    maxUseBotQueues: integer('max_use_bot_queues').notNull().default(3),
    timeToTransfer: integer('time_to_transfer').notNull().default(0),
    transferQueueId: integer('transfer_queue_id'),
    timeSendQueue: integer('time_send_queue').notNull().default(0),
    promptId: integer('prompt_id'),
    /** External-API bearer token; random and long, never emitted on the realtime channel. */
    token: text('token'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('connections_company_name_key').on(t.companyId, t.name),
    uniqueIndex('connections_token_key').on(t.token).where(sql`${t.token} is not null`),
    unique('connections_company_id_key').on(t.companyId, t.id),
    index('connections_status_idx').on(t.status),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

export const connectionQueues = pgTable(
  'connection_queues',
  {
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    queueId: integer('queue_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.queueId] }),
    index('connection_queues_queue_idx').on(t.queueId),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.queueId],
      foreignColumns: [queues.companyId, queues.id],
    }).onDelete('cascade'),
  ],
);
