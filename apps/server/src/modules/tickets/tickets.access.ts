import { hasRole, type Ticket } from '@atendi/shared';
import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { tickets } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { presentTicket, selectTickets } from './tickets.repository';

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

/**
 * The ticket `where` names, if the caller may read it: another company's (or no) ticket is
 * ERR_NO_TICKET_FOUND 404, one outside the caller's visibility ERR_NO_PERMISSION 403.
 */
export async function readableTicket(ctx: RequestContext, where: SQL): Promise<Ticket> {
  const db = tenantDb(ctx);
  const visibility = ticketVisibility(ctx);
  const [row] = await selectTickets(db, where).limit(1);
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (
    visibility &&
    (await db.count(tickets, and(eq(tickets.id, row.ticket.id), visibility))) === 0
  ) {
    throw new AppError('ERR_NO_PERMISSION', 403);
  }
  return presentTicket(row);
}
