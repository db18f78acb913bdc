import { sql } from 'drizzle-orm';
import {
  bigint,
  foreignKey,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { contacts } from './contacts';
import { users } from './users';

export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    body: text('body').notNull(),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    contactId: integer('contact_id').notNull(),
    ticketId: integer('ticket_id'),
    /** The connection it goes out through; the company's default one when none was chosen. */
    whatsappId: integer('whatsapp_id'),
    /** The outbound message it became: stored with the schedule's sending, in one commit. */
    messageId: bigint('message_id', { mode: 'number' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('PENDENTE'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    ...timestamps,
  },
  (t) => [
    index('schedules_company_send_at_idx').on(t.companyId, t.sendAt),
    index('schedules_due_idx').on(t.status, t.sendAt),
    // A sent message settles its schedule: looked up among the few still waiting for theirs.
    index('schedules_waiting_message_idx')
      .on(t.messageId)
      .where(sql`${t.status} = 'PENDENTE' and ${t.messageId} is not null`),
    foreignKey({
      columns: [t.companyId, t.contactId],
      foreignColumns: [contacts.companyId, contacts.id],
    }).onDelete('cascade'),
  ],
);
