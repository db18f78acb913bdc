import type {
  Contact,
  Tag,
  Ticket,
  TicketCreate,
  TicketNote,
  TicketNoteCreate,
  TicketUpdate,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { useSessionUser } from '../../app/auth';
import {
  applyTicketChange,
  removeTicket,
  type TicketFilters,
  type TicketsPage,
  ticketsKeys,
} from './tickets.cache';

export function useTickets(filters: TicketFilters, { enabled = true } = {}) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(filters),
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.get<TicketsPage>('/tickets', {
        query: {
          status: filters.status,
          searchParam: filters.searchParam || undefined,
          showAll: filters.showAll,
          queueIds: filters.queueIds?.length ? filters.queueIds : undefined,
          tags: filters.tags?.length ? filters.tags : undefined,
          users: filters.users?.length ? filters.users : undefined,
          withUnreadMessages: filters.withUnreadMessages || undefined,
          pageNumber: pageParam,
        },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The ticket of /tickets/:uuid. Its errors (403 above all) are the page's to handle. */
export function useTicket(uuid: string | undefined) {
  return useQuery({
    queryKey: ticketsKeys.detail(uuid ?? ''),
    enabled: Boolean(uuid),
    meta: { silent: true },
    retry: false,
    queryFn: ({ signal }) => api.get<Ticket>(`/tickets/u/${uuid}`, { signal }),
  });
}

export function useUpdateTicket() {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  return useMutation({
    mutationFn: ({ id, data }: { id: number; data: TicketUpdate }) =>
      api.put<Ticket>(`/tickets/${id}`, data),
    onSuccess: (ticket) => {
      if (ticket?.id) applyTicketChange(queryClient, ticket, me.id, { moveToTop: true });
    },
  });
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  return useMutation({
    // the dialog explains ERR_OTHER_OPEN_TICKET itself
    meta: { silent: true },
    mutationFn: (data: TicketCreate) => api.post<Ticket>('/tickets', data),
    onSuccess: (ticket) => {
      if (ticket?.id) applyTicketChange(queryClient, ticket, me.id, { moveToTop: true });
    },
  });
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/tickets/${id}`),
    onSuccess: (_answer, id) => removeTicket(queryClient, id),
  });
}

export function useTagsList() {
  return useQuery({
    queryKey: ['tags', 'list'],
    queryFn: ({ signal }) => api.get<Tag[]>('/tags/list', { signal }),
  });
}

export function useSyncTags() {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  return useMutation({
    mutationFn: (data: { ticketId: number; tags: { id: number }[] }) =>
      api.post<Ticket>('/tags/sync', data),
    onSuccess: (ticket) => {
      if (ticket?.id) applyTicketChange(queryClient, ticket, me.id);
    },
  });
}

export interface UserOption {
  id: number;
  name: string;
  profile?: string;
  queues?: { id: number; name: string }[];
}

export function useUsersList({ enabled = true } = {}) {
  return useQuery({
    queryKey: ['users', 'options'],
    enabled,
    meta: { silent: true },
    queryFn: ({ signal }) => api.get<UserOption[]>('/users/list', { signal }),
  });
}

/** The new-ticket dialog's contact search: asked from 3 characters on. */
export function useContactSearch(searchParam: string) {
  return useQuery({
    queryKey: ['contacts', 'search', searchParam],
    enabled: searchParam.length >= 3,
    queryFn: ({ signal }) =>
      api.get<{ contacts: Contact[] }>('/contacts', { query: { searchParam }, signal }),
    select: (data) => data.contacts ?? [],
  });
}

export function useContact(id: number | undefined) {
  return useQuery({
    queryKey: ['contacts', 'detail', id],
    enabled: id !== undefined,
    meta: { silent: true },
    queryFn: ({ signal }) => api.get<Contact>(`/contacts/${id}`, { signal }),
  });
}

const notesKey = (ticketId: number) => ['ticket-notes', ticketId] as const;

export function useTicketNotes(ticketId: number, contactId: number) {
  return useQuery({
    queryKey: notesKey(ticketId),
    queryFn: ({ signal }) =>
      api.get<TicketNote[]>('/ticket-notes/list', { query: { ticketId, contactId }, signal }),
  });
}

export function useAddNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: TicketNoteCreate) => api.post<TicketNote>('/ticket-notes', data),
    onSuccess: (note, data) => {
      queryClient.setQueryData<TicketNote[]>(notesKey(data.ticketId), (list) =>
        list ? [note, ...list.filter((item) => item.id !== note.id)] : [note],
      );
    },
  });
}

export function useDeleteNote(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/ticket-notes/${id}`),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<TicketNote[]>(notesKey(ticketId), (list) =>
        list?.filter((item) => item.id !== id),
      );
    },
  });
}
