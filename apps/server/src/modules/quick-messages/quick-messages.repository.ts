import { hasRole } from '@atendi/shared';
import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { quickMessages } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { likePattern } from '../../platform/routes';

export type QuickMessageRow = typeof quickMessages.$inferSelect;
type QuickMessageChanges = Partial<
  Pick<
    typeof quickMessages.$inferInsert,
    'shortcode' | 'message' | 'geral' | 'mediaPath' | 'mediaName'
  >
>;

/** The company's shared ('geral') replies and those of one user. */
const sharedOr = (userId: number) =>
  or(eq(quickMessages.geral, true), eq(quickMessages.userId, userId));

/** What a caller sees: the company's shared ('geral') replies and its own; admins all. */
function visibleTo(ctx: RequestContext): SQL | undefined {
  if (hasRole(ctx, 'admin')) return undefined;
  return sharedOr(ctx.userId);
}

/** A page of what the caller sees by shortcode, of one user and matching a search when asked. */
export async function quickMessagesPage(
  db: TenantDb,
  ctx: RequestContext,
  filter: { userId?: number; search?: string },
  options: { limit: number; offset: number },
) {
  const { search } = filter;
  const where = and(
    visibleTo(ctx),
    filter.userId ? sharedOr(filter.userId) : undefined,
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

/** The shared replies and the user's own, by shortcode. */
export function quickMessagesOf(db: TenantDb, userId: number) {
  return db.selectFrom(quickMessages, sharedOr(userId)).orderBy(asc(quickMessages.shortcode));
}

export async function quickMessageById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(quickMessages, eq(quickMessages.id, id));
  return row;
}

export async function insertQuickMessage(
  db: TenantDb,
  data: Pick<typeof quickMessages.$inferInsert, 'shortcode' | 'message' | 'geral' | 'userId'>,
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
