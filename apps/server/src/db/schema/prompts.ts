import {
  foreignKey,
  index,
  integer,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { queues } from './queues';
import { tickets } from './tickets';

/** AI prompts: a queue (or connection) with one answers its tickets through a chat model. */
export const prompts = pgTable(
  'prompts',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    prompt: text('prompt').notNull(),
    voice: text('voice').notNull().default('texto'),
    /** Encrypted at rest (platform/secrets.ts); answered as a masked hint only. */
    voiceKeyEncrypted: text('voice_key_encrypted'),
    voiceRegion: text('voice_region').notNull().default(''),
    maxTokens: integer('max_tokens').notNull().default(100),
    temperature: real('temperature').notNull().default(1),
    /** Encrypted at rest (platform/secrets.ts); answered as a masked hint only. */
    apiKeyEncrypted: text('api_key_encrypted'),
    /** A short hint of each key (its last characters), answered instead of the key. */
    apiKeyHint: text('api_key_hint'),
    voiceKeyHint: text('voice_key_hint'),
    queueId: integer('queue_id').notNull(),
    maxMessages: integer('max_messages').notNull().default(10),
    /** The last failure of its provider (a PROMPT_ERRORS name), null while it answers. */
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    unique('prompts_company_id_key').on(t.companyId, t.id),
    index('prompts_company_name_idx').on(t.companyId, t.name),
    foreignKey({
      columns: [t.companyId, t.queueId],
      foreignColumns: [queues.companyId, queues.id],
    }).onDelete('cascade'),
  ],
);

/** Each completion asked for a ticket: the cost guard counts them per ticket and hour. */
export const promptCompletions = pgTable(
  'prompt_completions',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    ticketId: integer('ticket_id').notNull(),
    promptId: integer('prompt_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('prompt_completions_ticket_idx').on(t.companyId, t.ticketId, t.createdAt),
    foreignKey({
      columns: [t.companyId, t.ticketId],
      foreignColumns: [tickets.companyId, tickets.id],
    }).onDelete('cascade'),
  ],
);
