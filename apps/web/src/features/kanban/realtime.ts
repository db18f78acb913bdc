import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { kanbanKeys, placeTicket } from './kanban.cache';

/**
 * Cards follow `company-{id}-ticket`: a move by another agent, a new message (the card goes
 * first in its lane), a close or a deletion (it leaves). A tag renamed, recoloured or switched
 * on or off as a lane redraws the lanes.
 */
export function useKanbanRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('ticket', (event) => {
    if (event.action === 'delete') placeTicket(queryClient, { removedId: event.ticketId });
    else placeTicket(queryClient, { ticket: event.ticket });
  });
  useCompanyEvent('tag', () => {
    void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
  });
}
