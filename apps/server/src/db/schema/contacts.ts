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
import { companyIdColumn, timestamps } from './columns';
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_company_number_key').on(t.companyId, t.number),
    index('contacts_company_name_idx').on(t.companyId, t.name),
    index('contacts_company_lid_idx').on(t.companyId, t.lid),
    index('contacts_company_created_idx').on(t.companyId, t.createdAt),
    // Search by any part of a name, number or email (pg_trgm).
    index('contacts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('contacts_number_trgm_idx').using('gin', t.number.op('gin_trgm_ops')),
    index('contacts_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    unique('contacts_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);
