import { hasRole, type Ticket } from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isTicketVisible, type TicketRef, ticketByRef } from './tickets.repository';

/** Whether the caller may read the ticket (see ticketVisibility); the realtime rooms ask it. */
export function canReadTicket(ctx: RequestContext, ticketId: number): Promise<boolean> {
  return isTicketVisible(tenantDb(ctx), ctx, ticketId);
}

/**
 * The ticket `ref` names, if the caller may read it: another company's (or no) ticket is
 * ERR_NO_TICKET_FOUND 404, one outside the caller's visibility ERR_NO_PERMISSION 403.
 */
export async function readableTicket(ctx: RequestContext, ref: TicketRef): Promise<Ticket> {
  const db = tenantDb(ctx);
  const ticket = await ticketByRef(db, ref);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
  if (!hasRole(ctx, 'admin') && !(await isTicketVisible(db, ctx, ticket.id))) {
    throw new AppError('ERR_NO_PERMISSION', 403);
  }
  return ticket;
}
