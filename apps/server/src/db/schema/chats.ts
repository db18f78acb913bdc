import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { users } from './users';

/** Internal chats between users of one company. */
export const chats = pgTable(
  'chats',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    uuid: uuid('uuid').notNull().default(sql`gen_random_uuid()`),
    title: text('title').notNull(),
    /** Only the owner changes or deletes the chat; null once its user is deleted. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    lastMessage: text('last_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    unique('chats_company_id_key').on(t.companyId, t.id),
    unique('chats_uuid_key').on(t.uuid),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/** A chat's members, each with the messages of others it has not read. */
export const chatUsers = pgTable(
  'chat_users',
  {
    companyId: companyIdColumn(),
    chatId: integer('chat_id').notNull(),
    userId: integer('user_id').notNull(),
    unreads: integer('unreads').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.userId] }),
    index('chat_users_user_idx').on(t.companyId, t.userId),
    foreignKey({
      columns: [t.companyId, t.chatId],
      foreignColumns: [chats.companyId, chats.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.companyId, t.userId],
      foreignColumns: [users.companyId, users.id],
    }).onDelete('cascade'),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    chatId: integer('chat_id').notNull(),
    /** Null once the sender's user is deleted. */
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    /** A file sent with the message (brought by the Whaticket import): storage key, name, type. */
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_chat_idx').on(t.chatId, t.id),
    foreignKey({
      columns: [t.companyId, t.chatId],
      foreignColumns: [chats.companyId, chats.id],
    }).onDelete('cascade'),
  ],
);
