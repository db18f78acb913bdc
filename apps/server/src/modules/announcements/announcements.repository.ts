import { and, asc, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { GlobalDb } from '../../db/global';
import { announcements } from '../../db/schema';
import { likePattern } from '../../platform/routes';

export type AnnouncementRow = typeof announcements.$inferSelect;
type Changes = Partial<
  Pick<AnnouncementRow, 'title' | 'text' | 'priority' | 'status' | 'mediaPath' | 'mediaName'>
>;

/** A page of announcements, most urgent first, then newest; only active ones when asked. */
export async function announcementsPage(
  db: GlobalDb,
  filter: { search?: string; activeOnly: boolean },
  options: { limit: number; offset: number },
): Promise<{ rows: AnnouncementRow[]; count: number }> {
  const conditions: SQL[] = [];
  if (filter.search) conditions.push(ilike(announcements.title, likePattern(filter.search)));
  if (filter.activeOnly) conditions.push(eq(announcements.status, true));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .selectFrom(announcements, where)
    .orderBy(asc(announcements.priority), desc(announcements.createdAt), desc(announcements.id))
    .limit(options.limit)
    .offset(options.offset);
  return { rows, count: await db.count(announcements, where) };
}

export async function announcementById(db: GlobalDb, id: number) {
  const [row] = await db.selectFrom(announcements, eq(announcements.id, id)).limit(1);
  return row;
}

export async function insertAnnouncement(
  db: GlobalDb,
  data: Pick<AnnouncementRow, 'title' | 'text' | 'priority' | 'status'>,
): Promise<AnnouncementRow> {
  const [row] = await db.insert(announcements, data).returning();
  return row!;
}

export async function updateAnnouncement(db: GlobalDb, id: number, data: Changes) {
  const [row] = await db
    .update(announcements, { ...data, updatedAt: new Date() }, eq(announcements.id, id))
    .returning();
  return row;
}

/** The deleted row, if it was there. */
export async function deleteAnnouncement(db: GlobalDb, id: number) {
  const [row] = await db.delete(announcements, eq(announcements.id, id)).returning();
  return row;
}
