import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps, tsvector } from './columns';
import { companies } from './companies';

export interface ContactExtraInfo {
  name: string;
  value: string;
}

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    /** Digits only for people; a group's id for groups. Unique per company. */
    number: text('number').notNull(),
    /** The provider's linked identity (WhatsApp LID), mapped to the same contact as the number. */
    lid: text('lid'),
    email: text('email').notNull().default(''),
    profilePicUrl: text('profile_pic_url').notNull().default(''),
    isGroup: boolean('is_group').notNull().default(false),
    extraInfo: jsonb('extra_info').$type<ContactExtraInfo[]>().notNull().default([]),
    whatsappId: integer('whatsapp_id'),
    /**
     * Words of the name and email and every part of the number, kept by PostgreSQL
     * (contact_search_document, migration 0004) for the search of GET /contacts.
     */
    searchDocument: tsvector('search_document').generatedAlwaysAs(
      sql`contact_search_document(name, number, email)`,
    ),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_company_number_key').on(t.companyId, t.number),
    index('contacts_company_name_idx').on(t.companyId, t.name),
    index('contacts_company_lid_idx').on(t.companyId, t.lid),
    index('contacts_company_created_idx').on(t.companyId, t.createdAt),
    // The dashboard's new contacts of a period, counted from the index alone.
    index('contacts_company_created_people_idx')
      .on(t.companyId, t.createdAt)
      .where(sql`not ${t.isGroup}`),
    // Search by words of the name or email and any part of the number (btree_gin for the company).
    index('contacts_search_idx').using('gin', t.companyId, t.searchDocument),
    unique('contacts_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);
