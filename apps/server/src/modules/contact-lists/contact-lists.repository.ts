import {
  and,
  asc,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  isNull,
  like,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { connections, contactListItems, contactLists } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { likePattern } from '../../platform/routes';

export type ContactListRow = typeof contactLists.$inferSelect & { contactsCount: number };
export type ContactListItemRow = typeof contactListItems.$inferSelect;
export type NewListItem = Pick<
  typeof contactListItems.$inferInsert,
  'name' | 'number' | 'email' | 'contactListId'
>;

/** Items of the list, counted through its unique index (company, list, number). */
const itemsCount = sql<number>`(select count(*)::int from contact_list_items i
  where i.company_id = "contact_lists"."company_id"
    and i.contact_list_id = "contact_lists"."id")`.mapWith(Number);

const listFields = {
  id: contactLists.id,
  companyId: contactLists.companyId,
  name: contactLists.name,
  createdAt: contactLists.createdAt,
  updatedAt: contactLists.updatedAt,
  contactsCount: itemsCount,
};

/** A page of the company's lists by name, with their counts (one statement per page). */
export async function contactListsPage(
  db: TenantDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = search ? ilike(contactLists.name, likePattern(search)) : undefined;
  const [rows, count] = await Promise.all([
    db
      .select(listFields)
      .from(contactLists, where)
      .orderBy(asc(contactLists.name), asc(contactLists.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(contactLists, where),
  ]);
  return { rows: rows as ContactListRow[], count };
}

export function contactListOptions(db: TenantDb) {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .orderBy(asc(contactLists.name), asc(contactLists.id));
}

export async function contactListById(db: TenantDb, id: number) {
  const [row] = await db.select(listFields).from(contactLists, eq(contactLists.id, id));
  return row as ContactListRow | undefined;
}

export async function insertContactList(db: TenantDb, name: string) {
  const [row] = await db.insert(contactLists, { name }).returning({ id: contactLists.id });
  return row!.id;
}

export async function renameContactList(db: TenantDb, id: number, name: string) {
  const rows = await db
    .update(contactLists, { name, updatedAt: new Date() }, eq(contactLists.id, id))
    .returning({ id: contactLists.id });
  return rows.length > 0;
}

/** The list and its items (their foreign key cascades). */
export async function deleteContactList(db: TenantDb, id: number) {
  const rows = await db
    .delete(contactLists, eq(contactLists.id, id))
    .returning({ id: contactLists.id });
  return rows.length > 0;
}

/** A page of a list's items by name; the search reads name, number and email. */
export async function contactListItemsPage(
  db: TenantDb,
  contactListId: number,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const digits = search?.replace(/\D/g, '') ?? '';
  const matches: SQL | undefined = search
    ? or(
        ilike(contactListItems.name, likePattern(search)),
        ilike(contactListItems.email, likePattern(search)),
        digits ? like(contactListItems.number, likePattern(digits)) : undefined,
      )
    : undefined;
  const where = and(eq(contactListItems.contactListId, contactListId), matches) as SQL;
  const [rows, count] = await Promise.all([
    db
      .selectFrom(contactListItems, where)
      .orderBy(asc(contactListItems.name), asc(contactListItems.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(contactListItems, where),
  ]);
  return { rows, count };
}

export async function contactListItemById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(contactListItems, eq(contactListItems.id, id));
  return row;
}

/** Inserts the item unless its number is in the list; undefined when it was. */
export async function insertContactListItem(db: TenantDb, item: NewListItem) {
  const [row] = await db
    .insert(contactListItems, item)
    .onConflictDoNothing({
      target: [contactListItems.companyId, contactListItems.contactListId, contactListItems.number],
    })
    .returning();
  return row;
}

/** Inserts the numbers the list lacks, each once; answers how many went in. */
export async function insertNewListItems(db: TenantDb, items: NewListItem[]) {
  if (items.length === 0) return 0;
  const rows = await db
    .insert(contactListItems, items)
    .onConflictDoNothing({
      target: [contactListItems.companyId, contactListItems.contactListId, contactListItems.number],
    })
    .returning({ id: contactListItems.id });
  return rows.length;
}

/** Changes an item; a new number clears what was known of it on WhatsApp. */
export async function updateContactListItem(
  db: TenantDb,
  id: number,
  changes: Partial<Pick<NewListItem, 'name' | 'number' | 'email'>>,
) {
  const [row] = await db
    .update(
      contactListItems,
      {
        ...changes,
        ...(changes.number !== undefined ? { isWhatsappValid: null } : {}),
        updatedAt: new Date(),
      },
      eq(contactListItems.id, id),
    )
    .returning();
  return row;
}

export async function deleteContactListItem(db: TenantDb, id: number) {
  const [row] = await db
    .delete(contactListItems, eq(contactListItems.id, id))
    .returning({ contactListId: contactListItems.contactListId });
  return row;
}

/** Items of the list whose WhatsApp validity is not known yet, oldest first. */
export function uncheckedItems(db: TenantDb, contactListId: number, limit: number) {
  return db
    .select({ id: contactListItems.id, number: contactListItems.number })
    .from(
      contactListItems,
      and(
        eq(contactListItems.contactListId, contactListId),
        isNull(contactListItems.isWhatsappValid),
      ) as SQL,
    )
    .orderBy(asc(contactListItems.id))
    .limit(limit);
}

export async function markWhatsappValidity(db: TenantDb, ids: number[], valid: boolean) {
  if (ids.length === 0) return;
  await db.update(
    contactListItems,
    { isWhatsappValid: valid },
    and(inArray(contactListItems.id, ids), isNull(contactListItems.isWhatsappValid)) as SQL,
  );
}

/** The connection that checks numbers: a connected one, the default first. */
export async function checkingConnection(db: TenantDb) {
  const [connection] = await db
    .select({ id: connections.id })
    .from(connections, eq(connections.status, 'CONNECTED'))
    .orderBy(desc(connections.isDefault), asc(connections.id))
    .limit(1);
  return connection;
}

/** The company's lists with items whose WhatsApp validity is not known yet. */
export async function listsWithUncheckedItems(db: TenantDb) {
  const rows = await db
    .select({ id: contactLists.id })
    .from(
      contactLists,
      exists(
        db
          .select({ id: contactListItems.id })
          .from(
            contactListItems,
            and(
              eq(contactListItems.contactListId, contactLists.id),
              isNull(contactListItems.isWhatsappValid),
            ) as SQL,
          ),
      ),
    )
    .orderBy(asc(contactLists.id));
  return rows.map((row) => row.id);
}

/** Sets what the network told of an item's number, unless its number changed meanwhile. */
export async function setWhatsappValid(
  db: TenantDb,
  item: { id: number; number: string },
  valid: boolean,
) {
  const [row] = await db
    .update(
      contactListItems,
      { isWhatsappValid: valid, updatedAt: new Date() },
      and(eq(contactListItems.id, item.id), eq(contactListItems.number, item.number))!,
    )
    .returning();
  return row;
}
