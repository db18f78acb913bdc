import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
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

/** A bulk send to a contact list (and the contacts of a tag), spec administration 3. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    message1: text('message1').notNull().default(''),
    message2: text('message2').notNull().default(''),
    message3: text('message3').notNull().default(''),
    message4: text('message4').notNull().default(''),
    message5: text('message5').notNull().default(''),
    confirmationMessage1: text('confirmation_message1').notNull().default(''),
    confirmationMessage2: text('confirmation_message2').notNull().default(''),
    confirmationMessage3: text('confirmation_message3').notNull().default(''),
    confirmationMessage4: text('confirmation_message4').notNull().default(''),
    confirmationMessage5: text('confirmation_message5').notNull().default(''),
    status: text('status').notNull().default('INATIVA'),
    confirmation: boolean('confirmation').notNull().default(false),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    whatsappId: integer('whatsapp_id'),
    contactListId: integer('contact_list_id'),
    tagListId: integer('tag_list_id'),
    /** A file list of the company: its files follow the campaign's message to each recipient. */
    fileListId: integer('file_list_id'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    /** The engine's pacing: no send of the campaign before this instant. */
    nextSendAt: timestamp('next_send_at', { withTimezone: true }),
    /** Sends since the last longer pause. */
    sendsInRow: integer('sends_in_row').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('campaigns_company_name_idx').on(t.companyId, t.name),
    index('campaigns_status_idx').on(t.status, t.scheduledAt),
    unique('campaigns_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/**
 * One recipient of a campaign: what was sent to it and when. Each send is claimed and its
 * outbound message stored in one transaction, so a recipient is written to once.
 */
export const campaignShipping = pgTable(
  'campaign_shipping',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    campaignId: integer('campaign_id').notNull(),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    contactId: integer('contact_id'),
    ticketId: integer('ticket_id'),
    /** The outbound message of the campaign's message (null until it is claimed). */
    messageId: bigint('message_id', { mode: 'number' }),
    /** The outbound message asking for confirmation (confirmation mode). */
    confirmationMessageId: bigint('confirmation_message_id', { mode: 'number' }),
    /** When the campaign's message was claimed for sending. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the network took the campaign's message. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    confirmationRequestedAt: timestamp('confirmation_requested_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /**
     * Left out: 'opted-out' (the contact asked for no more), 'failed' (the send failed),
     * 'imported' (written to by the product it was imported from: never written to again).
     */
    skipped: text('skipped'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_shipping_campaign_number_key').on(t.companyId, t.campaignId, t.number),
    index('campaign_shipping_message_idx')
      .on(t.messageId)
      .where(sql`${t.messageId} is not null and ${t.deliveredAt} is null`),
    index('campaign_shipping_number_idx').on(t.companyId, t.number),
    // The engine's next recipient: of those not written to yet, the first in the list's order;
    // and, asking for confirmation, the confirmed ones waiting for their message. Both shrink
    // as the campaign goes, so a send reads a few index entries at any stage.
    index('campaign_shipping_unsent_idx')
      .on(t.companyId, t.campaignId, t.id)
      .where(
        sql`${t.messageId} is null and ${t.confirmationMessageId} is null and ${t.skipped} is null`,
      ),
    index('campaign_shipping_confirmed_idx')
      .on(t.companyId, t.campaignId, t.confirmedAt, t.id)
      .where(sql`${t.messageId} is null and ${t.skipped} is null and ${t.confirmedAt} is not null`),
    index('campaign_shipping_sent_idx').on(t.companyId, t.sentAt),
    foreignKey({
      columns: [t.companyId, t.campaignId],
      foreignColumns: [campaigns.companyId, campaigns.id],
    }).onDelete('cascade'),
  ],
);

/** Campaign settings: key and value as JSON text (spec administration 3). */
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_settings_company_key').on(t.companyId, t.key),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/** Numbers that answered an opt-out word: no campaign of the company writes to them again. */
export const campaignOptOuts = pgTable(
  'campaign_opt_outs',
  {
    companyId: companyIdColumn(),
    number: text('number').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.number] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);
