import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
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
    /** The session should run (started and not disconnected by a person). */
    sessionEnabled: boolean('session_enabled').notNull().default(false),
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
    /** A queue integration (typebot, dialogflow, webhook, n8n) for the connection's tickets. */
    integrationId: integer('integration_id'),
    /** External-API bearer token; random and long, never emitted on the realtime channel. */
    token: text('token'),
    /**
     * Fencing for the session lease: raised by each instance that takes the connection over, so
     * a status written by an owner that lost it (under an older epoch) changes nothing.
     */
    leaseEpoch: integer('lease_epoch').notNull().default(0),
    /** The instance holding the lease; cleared on a clean release, kept when the owner died. */
    leaseOwner: text('lease_owner'),
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

/**
 * A provider's session state, one row per key (Baileys' creds and signal keys, the simulator's
 * pairing). Never answered to a client nor emitted.
 */
export const connectionAuthKeys = pgTable(
  'connection_auth_keys',
  {
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.key] }),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The simulator's messaging network: what simulated phones sent to a connection and what the
 * connection sent them. Kept in the database so every server instance sees the same network.
 */
export const simulatorMessages = pgTable(
  'simulator_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    /** The simulated phone (a contact's number, digits). */
    phone: text('phone').notNull(),
    phoneName: text('phone_name').notNull().default(''),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    kind: text('kind').notNull().default('text'),
    body: text('body').notNull().default(''),
    mediaPath: text('media_path'),
    mimeType: text('mime_type'),
    fileName: text('file_name'),
    location: jsonb('location').$type<{ latitude: number; longitude: number; name?: string }>(),
    vcard: text('vcard'),
    quotedProviderMessageId: text('quoted_provider_message_id'),
    ack: integer('ack').notNull().default(1),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isEdited: boolean('is_edited').notNull().default(false),
    /** When the connection committed an inbound message; null ones are delivered again. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('simulator_messages_conversation_idx').on(t.connectionId, t.phone, t.id),
    index('simulator_messages_pending_idx')
      .on(t.connectionId, t.id)
      .where(sql`${t.direction} = 'inbound' and ${t.deliveredAt} is null`),
    uniqueIndex('simulator_messages_provider_id_key').on(t.connectionId, t.providerMessageId),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Simulated phones a person added on the simulator page before they wrote anything, so the
 * page lists them after a reload (phones that wrote are known from their messages).
 */
export const simulatorPhones = pgTable(
  'simulator_phones',
  {
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    phone: text('phone').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.phone] }),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
  ],
);

/**
 * What a provider received and its network already considers delivered (WhatsApp Web
 * acknowledges by itself), written before it is processed so a crash in between is recovered:
 * the instance that next owns the connection processes what is left, oldest first. The item is
 * the provider's own serialised event, read back only inside its folder.
 */
export const inboundSpool = pgTable(
  'inbound_spool',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    kind: text('kind').notNull(),
    item: jsonb('item').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inbound_spool_connection_idx').on(t.connectionId, t.id),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Commands for a connection that no instance ran when they were asked (its owner had just died,
 * a takeover was under way): kept until the next owner's session connects and carries them out,
 * then deleted. Read receipts and deletions for everyone are safe to carry out twice.
 */
export const deferredChannelCommands = pgTable(
  'deferred_channel_commands',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyIdColumn(),
    connectionId: integer('connection_id').notNull(),
    action: text('action').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('deferred_channel_commands_connection_idx').on(t.connectionId, t.id),
    foreignKey({
      columns: [t.companyId, t.connectionId],
      foreignColumns: [connections.companyId, connections.id],
    }).onDelete('cascade'),
  ],
);
