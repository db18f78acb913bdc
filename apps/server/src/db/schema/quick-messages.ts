import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { queues } from './queues';
import { users } from './users';

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    shortcode: text('shortcode').notNull(),
    message: text('message').notNull().default(''),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    /** Shared with every user of the company ('geral'). */
    geral: boolean('geral').notNull().default(false),
    /** Shared with the agents of this queue; the queue's replies go with the queue. */
    queueId: integer('queue_id'),
    ...timestamps,
  },
  (t) => [
    index('quick_messages_company_shortcode_idx').on(t.companyId, t.shortcode),
    index('quick_messages_company_user_idx').on(t.companyId, t.userId),
    index('quick_messages_company_queue_idx').on(t.companyId, t.queueId),
    // A shortcode names one reply for whoever types it, in any case (the '/' picker ignores
    // case): a shared one once per company, a queue's once per queue, a personal one once per
    // author.
    uniqueIndex('quick_messages_shared_shortcode_key')
      .on(t.companyId, sql`lower(${t.shortcode})`)
      .where(sql`${t.geral}`),
    uniqueIndex('quick_messages_queue_shortcode_key')
      .on(t.companyId, t.queueId, sql`lower(${t.shortcode})`)
      .where(sql`not ${t.geral} and ${t.queueId} is not null`),
    uniqueIndex('quick_messages_personal_shortcode_key')
      .on(t.companyId, t.userId, sql`lower(${t.shortcode})`)
      .where(sql`not ${t.geral} and ${t.queueId} is null`),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.queueId],
      foreignColumns: [queues.companyId, queues.id],
    }).onDelete('cascade'),
  ],
);
