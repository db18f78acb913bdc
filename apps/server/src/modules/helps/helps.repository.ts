import type { Help, HelpCreate } from '@atendi/shared';
import { asc, eq, ilike } from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import { helps } from '../../db/schema';
import { isoRequired, likePattern } from '../../platform/routes';

const present = (row: typeof helps.$inferSelect): Help => ({
  id: row.id,
  title: row.title,
  description: row.description,
  video: row.video,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

export async function allHelps(db: GlobalDb): Promise<Help[]> {
  const rows = await db.selectFrom(helps).orderBy(asc(helps.title), asc(helps.id));
  return rows.map(present);
}

/** A page of help videos by title, matching a search when given. */
export async function helpsPage(
  db: GlobalDb,
  search: string | undefined,
  options: { limit: number; offset: number },
): Promise<Help[]> {
  const rows = await db
    .selectFrom(helps, search ? ilike(helps.title, likePattern(search)) : undefined)
    .orderBy(asc(helps.title))
    .limit(options.limit)
    .offset(options.offset);
  return rows.map(present);
}

export async function insertHelp(db: GlobalDb, data: HelpCreate): Promise<Help> {
  const [row] = await db.insert(helps, data).returning();
  return present(row!);
}

export async function updateHelp(db: GlobalDb, id: number, data: Partial<HelpCreate>) {
  const [row] = await db
    .update(helps, { ...data, updatedAt: new Date() }, eq(helps.id, id))
    .returning();
  return row ? present(row) : undefined;
}

/** Whether a help video was there to delete. */
export async function deleteHelp(db: GlobalDb, id: number): Promise<boolean> {
  const deleted = await db.delete(helps, eq(helps.id, id)).returning({ id: helps.id });
  return deleted.length > 0;
}
