import { foreignKey, index, integer, pgTable, serial, text, unique } from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';
import { users } from './users';

/** A named list of files with a message, for campaigns and bots (spec administration 3). */
export const fileLists = pgTable(
  'file_lists',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    name: text('name').notNull(),
    message: text('message').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('file_lists_company_name_idx').on(t.companyId, t.name),
    unique('file_lists_company_id_key').on(t.companyId, t.id),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);

/** One file of a list: its name, and the stored file once uploaded (a generated storage key). */
export const fileListOptions = pgTable(
  'file_list_options',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    fileListId: integer('file_list_id').notNull(),
    name: text('name').notNull(),
    /** Storage key (`<companyId>/<uuid>.<ext>`); null until a file is uploaded. */
    mediaPath: text('media_path'),
    mediaType: text('media_type'),
    /** The sender's file name, metadata only. */
    mediaName: text('media_name'),
    ...timestamps,
  },
  (t) => [
    index('file_list_options_list_idx').on(t.companyId, t.fileListId, t.id),
    foreignKey({
      columns: [t.companyId, t.fileListId],
      foreignColumns: [fileLists.companyId, fileLists.id],
    }).onDelete('cascade'),
  ],
);
