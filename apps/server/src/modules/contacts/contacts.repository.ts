import { type Contact, SEARCH_COUNT_LIMIT } from '@atendi/shared';
import { and, asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { connections, contacts } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';
import { searchQuery } from '../../platform/search';

const SAO_PAULO = 'America/Sao_Paulo';

/** A contact's columns without its search document, which only PostgreSQL reads. */
const { searchDocument: _document, ...contactColumns } = getTableColumns(contacts);
type ContactRow = Omit<typeof contacts.$inferSelect, 'searchDocument'>;
type ContactChanges = Partial<
  Pick<typeof contacts.$inferInsert, 'name' | 'number' | 'email' | 'extraInfo'>
>;
export type NewContact = Pick<typeof contacts.$inferInsert, 'name' | 'number' | 'email'> & {
  whatsappId?: number;
};

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
function contactSearch(term: string): SQL {
  return sql`${contacts.searchDocument} @@ ${searchQuery(term)}`;
}

/** Created from the start of `from` to the end of `to`, São Paulo days; sargable bounds. */
function createdBetween(from: string | undefined, to: string | undefined): SQL | undefined {
  const start = from
    ? sql`${contacts.createdAt} >= (${from}::date)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  const end = to
    ? sql`${contacts.createdAt} < (${to}::date + 1)::timestamp at time zone ${SAO_PAULO}`
    : undefined;
  return start && end ? sql`(${start} and ${end})` : (start ?? end);
}

const byName = [asc(contacts.name), asc(contacts.id)];

const searching = (search: string | undefined) => (search ? contactSearch(search) : undefined);

export const contactsRepository = {
  /**
   * A page by name of the contacts matching a search and created between two days (São Paulo),
   * and how many match; a search counts no further than SEARCH_COUNT_LIMIT.
   */
  async page(
    db: TenantDb,
    filter: { search?: string; from?: string; to?: string },
    options: { limit: number; offset: number; search: boolean },
  ) {
    const where = and(searching(filter.search), createdBetween(filter.from, filter.to));
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

  async list(db: TenantDb, search: string | undefined, limit: number) {
    const rows = await db
      .select(contactColumns)
      .from(contacts, searching(search))
      .orderBy(...byName)
      .limit(limit);
    return rows.map(presentContact);
  },

  /**
   * The company's contact of a number, inserted (named by its number) when there is none; says
   * whether it was inserted. A race with an inbound message is decided by the unique number.
   */
  async ofNumber(db: TenantDb, number: string) {
    const [inserted] = await db
      .insert(contacts, { name: number, number })
      .onConflictDoNothing()
      .returning(contactColumns);
    if (inserted) return { contact: presentContact(inserted), created: true };
    const [row] = await db
      .select(contactColumns)
      .from(contacts, eq(contacts.number, number))
      .limit(1);
    if (!row) throw new Error('contactOfNumber: the contact is neither new nor stored');
    return { contact: presentContact(row), created: false };
  },

  async byId(db: TenantDb, id: number) {
    const [row] = await db.select(contactColumns).from(contacts, eq(contacts.id, id)).limit(1);
    return row;
  },

  async insert(
    db: TenantDb,
    data: ContactChanges & Pick<typeof contacts.$inferInsert, 'name' | 'number'>,
  ) {
    const [row] = await db.insert(contacts, data).returning();
    return presentContact(row!);
  },

  async update(db: TenantDb, id: number, changes: ContactChanges) {
    const [row] = await db
      .update(contacts, { ...changes, updatedAt: new Date() }, eq(contacts.id, id))
      .returning();
    return row ? presentContact(row) : undefined;
  },

  /** Whether a contact was there to delete; its tickets and their messages go with it. */
  async delete(db: TenantDb, id: number): Promise<boolean> {
    const deleted = await db.delete(contacts, eq(contacts.id, id)).returning({ id: contacts.id });
    return deleted.length > 0;
  },

  /** Inserts the numbers the company does not have yet and answers the contacts added. */
  async insertNew(db: TenantDb, rows: NewContact[]) {
    const added = await db
      .insert(contacts, rows)
      .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
      .returning();
    return added.map(presentContact);
  },

  /** Sets a stored picture, unless another one was stored since `expected` was read. */
  async replacePicture(db: TenantDb, id: number, expected: string, url: string) {
    const [row] = await db
      .update(
        contacts,
        { profilePicUrl: url },
        and(eq(contacts.id, id), eq(contacts.profilePicUrl, expected))!,
      )
      .returning();
    return row ? presentContact(row) : undefined;
  },

  /** The connection whose address book is imported: the one asked for, else the default. */
  async addressBookConnection(db: TenantDb, whatsappId: number | undefined) {
    const [connection] = await db
      .select({ id: connections.id, name: connections.name, provider: connections.provider })
      .from(
        connections,
        whatsappId ? eq(connections.id, whatsappId) : eq(connections.isDefault, true),
      )
      .orderBy(connections.id)
      .limit(1);
    return connection;
  },
};
