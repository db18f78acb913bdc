import type { Ticket } from '@atendi/shared';
import type { Audience, RealtimeAudience } from '../../platform/realtime';

/**
 * The sockets that may read a ticket, by the rule of ticketVisibility (tickets.repository.ts):
 * those who read every ticket (tickets:showAll, the admins), the ticket's queue (the no-queue
 * room of allTicket users only while it waits without one), its agent, and the sockets that
 * joined its conversation (joinChatBox asks canReadTicket, the same rule).
 */
export function ticketReaders(
  companyId: number,
  ticket: Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>,
): Audience {
  return {
    companyId,
    may: 'tickets:showAll',
    queueId: ticket.queueId ?? (ticket.status === 'pending' ? null : undefined),
    userIds: ticket.userId ? [ticket.userId] : [],
    ticketId: ticket.id,
  };
}

/**
 * A ticket's changes. A move (`previous`) is first told as `delete` to the rooms that could read
 * the ticket before: all of them when its status or agent changed (the spec's clients keep a
 * list per status and take a ticket out of one only on `delete`; the update that follows puts it
 * in its new list), otherwise those that can read it no more.
 */
export const ticketsAudience: RealtimeAudience = (events, realtime) => {
  events.on('ticket.saved', ({ companyId, action, ticket, previous }) => {
    const readers = ticketReaders(companyId, ticket);
    if (previous) {
      const listChanged = previous.status !== ticket.status || previous.userId !== ticket.userId;
      realtime.emit(
        ticketReaders(companyId, { ...previous, id: ticket.id }),
        'ticket',
        { action: 'delete', ticketId: ticket.id },
        listChanged ? undefined : readers,
      );
    }
    realtime.emit(
      readers,
      'ticket',
      action === 'updateUnread' ? { action, ticketId: ticket.id, ticket } : { action, ticket },
    );
    if (previous) realtime.recheckTicket(companyId, ticket.id);
  });
  events.on('ticket.deleted', ({ companyId, ticket }) =>
    realtime.emit(ticketReaders(companyId, ticket), 'ticket', {
      action: 'delete',
      ticketId: ticket.id,
    }),
  );
};
