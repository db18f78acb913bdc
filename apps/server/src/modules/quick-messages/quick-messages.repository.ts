import { can } from '@atendi/shared';
import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { queues, quickMessages, userQueues } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { likePattern } from '../../platform/routes';

export type QuickMessageRow = typeof quickMessages.$inferSelect;
type QuickMessageChanges = Partial<
  Pick<
    typeof quickMessages.$inferInsert,
    'shortcode' | 'message' | 'geral' | 'queueId' | 'mediaPath' | 'mediaName'
  >
>;

/** Whose replies a user sees: theirs, and those of the queues they work in. */
interface Reader {
  userId: number;
  queueIds: readonly number[];
}

/** The company's shared ('geral') replies, the user's own and those of the user's queues. */
const sharedOr = ({ userId, queueIds }: Reader) =>
  or(
    eq(quickMessages.geral, true),
    eq(quickMessages.userId, userId),
    queueIds.length ? inArray(quickMessages.queueId, [...queueIds]) : undefined,
  );

/** Whether a user sees a reply, by the rule of `sharedOr`. */
export const readableBy = (row: QuickMessageRow, { userId, queueIds }: Reader) =>
  row.geral || row.userId === userId || (row.queueId !== null && queueIds.includes(row.queueId));

/** What a caller sees: the company's shared ('geral') replies, its queues' and its own; all with quickMessages:all. */
function visibleTo(ctx: RequestContext): SQL | undefined {
  if (can(ctx, 'quickMessages:all', ctx.planFlags)) return undefined;
  return sharedOr(ctx);
}

/** A page of what the caller sees by shortcode, of one user and matching a search when asked. */
export async function quickMessagesPage(
  db: TenantDb,
  ctx: RequestContext,
  filter: { user?: Reader; search?: string },
  options: { limit: number; offset: number },
) {
  const { search } = filter;
  const where = and(
    visibleTo(ctx),
    filter.user ? sharedOr(filter.user) : undefined,
    search
      ? or(
          ilike(quickMessages.shortcode, likePattern(search)),
          ilike(quickMessages.message, likePattern(search)),
        )
      : undefined,
  );
  const [rows, count] = await Promise.all([
    db
      .selectFrom(quickMessages, where)
      .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(quickMessages, where),
  ]);
  return { rows, count };
}

/** The shared replies, those of the user's queues and the user's own, by shortcode. */
export function quickMessagesOf(db: TenantDb, reader: Reader) {
  return db.selectFrom(quickMessages, sharedOr(reader)).orderBy(asc(quickMessages.shortcode));
}

/** The queues of a user, for a filter by that user (the list's userId). */
export async function queueIdsOfUser(db: TenantDb, userId: number): Promise<number[]> {
  const rows = await db.selectFrom(userQueues, eq(userQueues.userId, userId));
  return rows.map((row) => row.queueId);
}

export async function queueExists(db: TenantDb, id: number) {
  return (await db.count(queues, eq(queues.id, id))) > 0;
}

export async function quickMessageById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(quickMessages, eq(quickMessages.id, id));
  return row;
}

export async function insertQuickMessage(
  db: TenantDb,
  data: Pick<
    typeof quickMessages.$inferInsert,
    'shortcode' | 'message' | 'geral' | 'queueId' | 'userId'
  >,
) {
  const [row] = await db.insert(quickMessages, data).returning();
  return row!;
}

export async function updateQuickMessage(db: TenantDb, id: number, data: QuickMessageChanges) {
  const [row] = await db
    .update(quickMessages, { ...data, updatedAt: new Date() }, eq(quickMessages.id, id))
    .returning();
  return row;
}

export async function deleteQuickMessage(db: TenantDb, id: number) {
  await db.delete(quickMessages, eq(quickMessages.id, id));
}
