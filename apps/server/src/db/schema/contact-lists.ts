import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  serial,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';

/** A list of people a campaign writes to (spec administration 3). */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [
    index('contact_lists_company_name_idx').on(t.companyId, t.name),
    unique('contact_lists_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    contactListId: integer('contact_list_id').notNull(),
    name: text('name').notNull(),
    /** Country code, area code, number: digits only, once per list. */
    number: text('number').notNull(),
    email: text('email').notNull().default(''),
    /** On WhatsApp or not, as the connection told; null until it could tell. */
    isWhatsappValid: boolean('is_whatsapp_valid'),
    ...timestamps,
  },
  (t) => [
    // A number is kept once per list: imports insert with `on conflict do nothing` on it.
    uniqueIndex('contact_list_items_list_number_key').on(t.companyId, t.contactListId, t.number),
    index('contact_list_items_list_name_idx').on(t.companyId, t.contactListId, t.name, t.id),
    unique('contact_list_items_company_id_key').on(t.companyId, t.id),
    foreignKey({
      columns: [t.companyId, t.contactListId],
      foreignColumns: [contactLists.companyId, contactLists.id],
    }).onDelete('cascade'),
  ],
);
