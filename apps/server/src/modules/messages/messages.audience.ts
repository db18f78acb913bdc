import type { RealtimeAudience } from '../../platform/realtime';
import { ticketReaders } from '../tickets/tickets.audience';

/** A message is heard by whoever may read its ticket (GET /messages/:ticketId asks the same). */
export const messagesAudience: RealtimeAudience = (events, realtime) => {
  events.on('message.saved', ({ companyId, action, message, ticket }) =>
    realtime.emit(ticketReaders(companyId, ticket), 'appMessage', {
      action,
      message,
      ticket,
      contact: ticket.contact,
    }),
  );
};
