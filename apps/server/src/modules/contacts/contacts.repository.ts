import { type Contact, SEARCH_COUNT_LIMIT } from '@atendi/shared';
import { asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { contacts } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';
import { searchQuery } from '../../platform/search';

const SAO_PAULO = 'America/Sao_Paulo';

/** A contact's columns without its search document, which only PostgreSQL reads. */
const { searchDocument: _document, ...contactColumns } = getTableColumns(contacts);
type ContactRow = Omit<typeof contacts.$inferSelect, 'searchDocument'>;

export function presentContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    extraInfo: row.extraInfo,
    whatsappId: row.whatsappId,
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  };
}

/**
 * Every word of `term` starting a word of the name or email, or a typed number anywhere in the
 * number (contacts.search_document; see searchQuery).
 */
export function contactSearch(term: string): SQL {
  return sql`${contacts.searchDocument} @@ ${searchQuery(term)}`;
}

/** Created from the start of `from` to the end of `to`, São Paulo days; sargable bounds. */
export function createdBetween(from: string | undefined, to: string | undefined): SQL | undefined {
  const start = from
    ? sql`${contacts.createdAt} >= (${from}::date)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  const end = to
    ? sql`${contacts.createdAt} < (${to}::date + 1)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  return start && end ? sql`(${start} and ${end})` : (start ?? end);
}

const byName = [asc(contacts.name), asc(contacts.id)];

export const contactsRepository = {
  /** A page by name and how many match; a search counts no further than SEARCH_COUNT_LIMIT. */
  async page(
    db: TenantDb,
    where: SQL | undefined,
    options: { limit: number; offset: number; search: boolean },
  ) {
    const [rows, count] = await Promise.all([
      db
        .select(contactColumns)
        .from(contacts, where)
        .orderBy(...byName)
        .limit(options.limit)
        .offset(options.offset),
      options.search
        ? db.countUpTo(contacts, where, SEARCH_COUNT_LIMIT + 1)
        : db.count(contacts, where),
    ]);
    return {
      rows: rows.map(presentContact),
      count: options.search ? Math.min(count, SEARCH_COUNT_LIMIT) : count,
      countExact: !options.search || count <= SEARCH_COUNT_LIMIT,
    };
  },

  async list(db: TenantDb, where: SQL | undefined, limit: number) {
    const rows = await db
      .select(contactColumns)
      .from(contacts, where)
      .orderBy(...byName)
      .limit(limit);
    return rows.map(presentContact);
  },

  async byId(db: TenantDb, id: number) {
    const [row] = await db.select(contactColumns).from(contacts, eq(contacts.id, id)).limit(1);
    return row;
  },
};
