import type { CompanySchedule } from '@atendi/shared';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { users } from './users';

export const queues = pgTable(
  'queues',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    token: text('token'),
    orderQueue: integer('order_queue'),
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    schedules: jsonb('schedules').$type<CompanySchedule[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('queues_company_name_key').on(t.companyId, t.name),
    uniqueIndex('queues_company_color_key').on(t.companyId, t.color),
    unique('queues_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

export const userQueues = pgTable(
  'user_queues',
  {
    companyId: companyIdColumn(),
    userId: integer('user_id').notNull(),
    queueId: integer('queue_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index('user_queues_queue_idx').on(t.queueId),
    // Composite keys: a user can only be linked to a queue of its own company.
    foreignKey({
      columns: [t.companyId, t.userId],
      foreignColumns: [users.companyId, users.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.queueId],
      foreignColumns: [queues.companyId, queues.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A queue's bot menu, as a tree: each option has a number the contact answers with, the text
 * sent when it is chosen, and its own children (spec administration 3, "Queue option").
 */
export const queueOptions = pgTable(
  'queue_options',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    queueId: integer('queue_id').notNull(),
    parentId: integer('parent_id'),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    /** What the contact types to choose it ('1', '2', ...). */
    option: text('option').notNull(),
    ...timestamps,
  },
  (t) => [
    unique('queue_options_company_id_key').on(t.companyId, t.id),
    index('queue_options_queue_parent_idx').on(t.companyId, t.queueId, t.parentId),
    foreignKey({
      columns: [t.companyId, t.queueId],
      foreignColumns: [queues.companyId, queues.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.parentId],
      foreignColumns: [t.companyId, t.id],
    }).onDelete('cascade'),
  ],
);
