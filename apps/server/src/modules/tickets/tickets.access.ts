import { hasRole } from '@atendi/shared';
import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { tickets } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';

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

export async function canReadTicket(ctx: RequestContext, ticketId: number): Promise<boolean> {
  const found = await tenantDb(ctx).count(
    tickets,
    and(eq(tickets.id, ticketId), ticketVisibility(ctx)),
  );
  return found > 0;
}
