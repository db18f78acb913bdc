import type { Tag } from '@atendi/shared';
import { and, asc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { tags, ticketTags } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired, likePattern } from '../../platform/routes';

type TagRow = typeof tags.$inferSelect;
type TagChanges = Pick<typeof tags.$inferInsert, 'name' | 'color' | 'kanban'>;

const present = (row: TagRow): Tag => ({
  id: row.id,
  name: row.name,
  color: row.color,
  kanban: row.kanban,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

// Keyed by a tag read through the company filter; ticket_tags' composite keys keep its tickets
// inside the company. Counted on ticket_tags_tag_idx.
const ticketsCount = sql<number>`(select count(*)::int from ${ticketTags} tt where tt.tag_id = ${tags}.id)`;

const nameLike = (search: string | undefined): SQL | undefined =>
  search ? ilike(tags.name, likePattern(search)) : undefined;

/** A page of tags by name, each with how many tickets carry it, and how many match. */
export async function tagsPage(
  db: TenantDb,
  search: string | undefined,
  options: { limit: number; offset: number },
) {
  const where = nameLike(search);
  const [rows, count] = await Promise.all([
    db
      .select({ tag: tags, ticketsCount })
      .from(tags, where)
      .orderBy(asc(tags.name), asc(tags.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(tags, where),
  ]);
  return {
    rows: rows.map((row) => ({ ...present(row.tag), ticketsCount: row.ticketsCount })),
    count,
  };
}

/** Every tag by name, of one kanban flag and matching a search when given. */
export async function tagsMatching(
  db: TenantDb,
  filter: { kanban?: number; search?: string },
): Promise<Tag[]> {
  const rows = await db
    .selectFrom(
      tags,
      and(
        filter.kanban === undefined ? undefined : eq(tags.kanban, filter.kanban),
        nameLike(filter.search),
      ),
    )
    .orderBy(asc(tags.name));
  return rows.map(present);
}

export async function tagById(db: TenantDb, id: number): Promise<Tag | undefined> {
  const [row] = await db.selectFrom(tags, eq(tags.id, id));
  return row ? present(row) : undefined;
}

export async function insertTag(db: TenantDb, data: TagChanges): Promise<Tag> {
  const [row] = await db.insert(tags, data).returning();
  return present(row!);
}

export async function updateTag(
  db: TenantDb,
  id: number,
  data: Partial<TagChanges>,
): Promise<Tag | undefined> {
  const [row] = await db
    .update(tags, { ...data, updatedAt: new Date() }, eq(tags.id, id))
    .returning();
  return row ? present(row) : undefined;
}

/** Whether a tag was there to delete. */
export async function deleteTag(db: TenantDb, id: number): Promise<boolean> {
  const deleted = await db.delete(tags, eq(tags.id, id)).returning({ id: tags.id });
  return deleted.length > 0;
}

/** How many of `ids` are tags of this company. */
export function countTags(db: TenantDb, ids: number[]) {
  return db.count(tags, inArray(tags.id, ids));
}

/** The ticket's tags become exactly `tagIds`. */
export async function setTicketTags(db: TenantDb, ticketId: number, tagIds: number[]) {
  await db.transaction(async (tx) => {
    await tx.delete(ticketTags, eq(ticketTags.ticketId, ticketId));
    if (tagIds.length > 0) {
      await tx.insert(
        ticketTags,
        tagIds.map((tagId) => ({ ticketId, tagId })),
      );
    }
  });
}
