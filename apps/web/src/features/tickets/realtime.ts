import { CLIENT_MESSAGES, messagesContract, type Ticket, ticketsContract } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiError, api } from '../../app/api';
import { useSessionUser } from '../../app/auth';
import { useCompanyEvent, useSocket } from '../../app/socket';
import { applyMessage } from '../messages/api';
import { applyTicketChange, patchTicketContact, removeTicket } from './tickets.cache';

/**
 * Keeps the ticket lists, the open ticket and its conversation in step with the server (the
 * alerts for new messages are app-wide: alerts.ts).
 */
export function useTicketsRealtime(current: Ticket | undefined, onCurrentGone: () => void) {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const socket = useSocket();
  const markTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const currentId = current?.id;

  // the list rooms; the socket already sits in the rooms of its queues, these say we listen
  useEffect(() => {
    if (!socket) return;
    const join = () => {
      for (const status of ['open', 'pending', 'closed']) {
        socket.emit(CLIENT_MESSAGES.joinTickets, status);
      }
    };
    join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
    };
  }, [socket]);

  // the open conversation's room, left when another ticket opens or the screen closes
  useEffect(() => {
    if (!socket || currentId === undefined) return;
    const join = () => socket.emit(CLIENT_MESSAGES.joinChatBox, String(currentId));
    join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
      socket.emit(CLIENT_MESSAGES.leaveChatBox, String(currentId));
    };
  }, [socket, currentId]);

  useEffect(() => () => clearTimeout(markTimer.current), []);

  useCompanyEvent('ticket', (event) => {
    if (event.action === 'delete') {
      const id = Number(event.ticketId);
      if (!Number.isInteger(id)) return;
      removeTicket(queryClient, id);
      // A ticket that moves (accepted, resolved, transferred) is first dropped from the lists it
      // leaves, then updated into its new one: the open conversation closes only once the ticket
      // is gone or out of this user's reach.
      if (id === currentId) {
        api.call(ticketsContract.get, { params: { id } }).then(
          () => undefined,
          (error: unknown) => {
            if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
              onCurrentGone();
            }
          },
        );
      }
      return;
    }
    if (!event.ticket?.id) return;
    // the open conversation is being read: its count stays at zero while it is on screen
    const ticket =
      event.ticket.id === currentId ? { ...event.ticket, unreadMessages: 0 } : event.ticket;
    applyTicketChange(queryClient, ticket, user.id);
  });

  // a contact's new picture or name shows on its tickets at once
  useCompanyEvent('contact', (event) => {
    const contact = event?.action === 'update' ? event.contact : undefined;
    if (typeof contact?.id !== 'number') return;
    const { id, name, number, profilePicUrl } = contact;
    patchTicketContact(queryClient, {
      id,
      ...(name !== undefined ? { name } : {}),
      ...(number !== undefined ? { number } : {}),
      ...(profilePicUrl !== undefined ? { profilePicUrl } : {}),
    });
  });

  useCompanyEvent('appMessage', (event) => {
    if (!event.message || !event.ticket) return;
    applyMessage(queryClient, event.message);
    if (event.action !== 'create') return;
    const isCurrent = event.ticket.id === currentId;
    // the open conversation is being read: tell the server, the unread count stays at zero
    const ticket = isCurrent ? { ...event.ticket, unreadMessages: 0 } : event.ticket;
    applyTicketChange(queryClient, ticket, user.id, { moveToTop: true });
    if (event.message.fromMe || !isCurrent) return;
    clearTimeout(markTimer.current);
    markTimer.current = setTimeout(() => {
      void api
        .call(messagesContract.list, { params: { ticketId: ticket.id }, query: { pageNumber: 1 } })
        .catch(() => {});
    }, 800);
  });
}
