import type { CompanySchedule } from '@atendi/shared';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';

export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    users: integer('users').notNull().default(0),
    connections: integer('connections').notNull().default(0),
    queues: integer('queues').notNull().default(0),
    value: numeric('value', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    useCampaigns: boolean('use_campaigns').notNull().default(false),
    useSchedules: boolean('use_schedules').notNull().default(false),
    useInternalChat: boolean('use_internal_chat').notNull().default(false),
    useExternalApi: boolean('use_external_api').notNull().default(false),
    useKanban: boolean('use_kanban').notNull().default(false),
    useOpenAi: boolean('use_open_ai').notNull().default(false),
    useIntegrations: boolean('use_integrations').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('plans_name_key').on(t.name)],
);

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    status: boolean('status').notNull().default(true),
    dueDate: date('due_date', { mode: 'string' }),
    trialExpiration: timestamp('trial_expiration', { withTimezone: true }),
    recurrence: text('recurrence').notNull().default('MENSAL'),
    schedules: jsonb('schedules').$type<CompanySchedule[]>().notNull().default([]),
    billingName: text('billing_name'),
    addressZipCode: text('address_zip_code'),
    addressStreet: text('address_street'),
    addressState: text('address_state'),
    addressCity: text('address_city'),
    addressDistrict: text('address_district'),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_key').on(t.name), index('companies_plan_idx').on(t.planId)],
);

export const settings = pgTable(
  'settings',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('settings_company_key').on(t.companyId, t.key),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/** Help videos, shared by every company and edited by the super user. */
export const helps = pgTable('helps', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  video: text('video').notNull().default(''),
  ...timestamps,
});

/** Announcements of the platform, written by the super user and read by every company. */
export const announcements = pgTable('announcements', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  text: text('text').notNull(),
  /** 1 high, 2 medium, 3 low. */
  priority: integer('priority').notNull().default(3),
  status: boolean('status').notNull().default(true),
  mediaPath: text('media_path'),
  mediaName: text('media_name'),
  ...timestamps,
});
