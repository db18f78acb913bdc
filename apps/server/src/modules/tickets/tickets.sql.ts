import { hasRole } from '@atendi/shared';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { tickets } from '../../db/schema';
import type { RequestContext } from '../../platform/auth/context';

/**
 * The tickets' rules as conditions, for statements of other modules that must stay one query
 * (the kanban board, a ticket's notes): each rule is written here once and composed there.
 * Only repositories import this file.
 */

/**
 * Which tickets a caller may read: admins all of the company's; users those of their queues and
 * their own, and with allTicket also the pending ones that have no queue yet. Lists, the
 * conversation screen and the realtime rooms all use this one rule.
 */
export function ticketVisibility(ctx: RequestContext): SQL | undefined {
  if (hasRole(ctx, 'admin')) return undefined;
  return or(
    eq(tickets.userId, ctx.userId),
    ctx.queueIds.length > 0 ? inArray(tickets.queueId, ctx.queueIds) : undefined,
    ctx.allTicket ? and(isNull(tickets.queueId), eq(tickets.status, 'pending')) : undefined,
  );
}

/** Newest activity first, in the order of tickets_company_updated_idx. */
export const newestFirst = sql`${tickets.updatedAt} desc nulls last, ${tickets.id} desc nulls last`;
