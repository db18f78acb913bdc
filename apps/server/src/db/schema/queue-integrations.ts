import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { tickets } from './tickets';

/**
 * Bot and event integrations a queue or connection names (integrationId): webhook and n8n
 * receive the conversation's events; typebot and dialogflow answer the contact.
 */
export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    projectName: text('project_name').notNull().default(''),
    /** Dialogflow's service-account key: encrypted at rest, answered as a masked hint only. */
    jsonContentEncrypted: text('json_content_encrypted'),
    jsonContentHint: text('json_content_hint'),
    language: text('language').notNull().default('pt-BR'),
    /** The receiver's URL (webhook, n8n) or the Typebot server's base URL. */
    urlN8N: text('url_n8n').notNull().default(''),
    typebotSlug: text('typebot_slug').notNull().default(''),
    /** Minutes a Typebot session lasts without messages; 0 keeps it open. */
    typebotExpires: integer('typebot_expires').notNull().default(1),
    typebotDelayMessage: integer('typebot_delay_message').notNull().default(1000),
    typebotKeywordFinish: text('typebot_keyword_finish').notNull().default(''),
    typebotKeywordRestart: text('typebot_keyword_restart').notNull().default(''),
    typebotUnknownMessage: text('typebot_unknown_message').notNull().default(''),
    typebotRestartMessage: text('typebot_restart_message').notNull().default(''),
    /** The HMAC key webhook and n8n deliveries are signed with: encrypted, answered masked. */
    secretEncrypted: text('secret_encrypted'),
    secretHint: text('secret_hint'),
    ...timestamps,
  },
  (t) => [
    unique('queue_integrations_company_id_key').on(t.companyId, t.id),
    index('queue_integrations_company_name_idx').on(t.companyId, t.name),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/** One event posted to a webhook or n8n integration, with how its delivery went. */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    integrationId: integer('integration_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    /** pending (waiting or retrying), delivered, failed (given up). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    /** Why the last try failed, as a code the web words for the admin (ERR_INTEGRATION_...). */
    errorCode: text('error_code'),
    /** The last failure as the network or the receiver told it, kept for support. */
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('integration_deliveries_integration_idx').on(t.companyId, t.integrationId, t.id),
    foreignKey({
      columns: [t.companyId, t.integrationId],
      foreignColumns: [queueIntegrations.companyId, queueIntegrations.id],
    }).onDelete('cascade'),
  ],
);

/** A ticket's running Typebot chat: continued until it ends, expires or is restarted. */
export const integrationSessions = pgTable(
  'integration_sessions',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    ticketId: integer('ticket_id').notNull(),
    integrationId: integer('integration_id').notNull(),
    sessionId: text('session_id').notNull(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('integration_sessions_ticket_key').on(t.companyId, t.ticketId),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.integrationId],
      foreignColumns: [queueIntegrations.companyId, queueIntegrations.id],
    }).onDelete('cascade'),
  ],
);
