import {
  type TicketCreate,
  type TicketNote,
  type TicketNoteCreate,
  type TicketUpdate,
  tagsContract,
  ticketNotesContract as ticketNotes,
  ticketsContract as tickets,
  usersContract,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { useSessionUser } from '../../app/auth';
import { applyTicketChange, removeTicket, type TicketFilters, ticketsKeys } from './tickets.cache';

export function useTickets(filters: TicketFilters, { enabled = true } = {}) {
  return useInfiniteQuery({
    queryKey: ticketsKeys.list(filters),
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(tickets.list, {
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
    queryFn: ({ signal }) => api.call(tickets.getByUuid, { params: { uuid: uuid! }, signal }),
  });
}

export function useUpdateTicket() {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  return useMutation({
    mutationFn: ({ id, data }: { id: number; data: TicketUpdate }) =>
      api.call(tickets.update, { params: { id }, body: data }),
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
    mutationFn: (data: TicketCreate) => api.call(tickets.create, { body: data }),
    onSuccess: (ticket) => {
      if (ticket?.id) applyTicketChange(queryClient, ticket, me.id, { moveToTop: true });
    },
  });
}

export function useDeleteTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(tickets.remove, { params: { id } }),
    onSuccess: (_answer, id) => removeTicket(queryClient, id),
  });
}

export function useTagsList() {
  return useQuery({
    queryKey: ['tags', 'list'],
    queryFn: ({ signal }) => api.call(tagsContract.listAll, { signal }),
  });
}

export function useSyncTags() {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  return useMutation({
    mutationFn: (data: { ticketId: number; tags: { id: number }[] }) =>
      api.call(tagsContract.sync, { body: data }),
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
    queryFn: ({ signal }): Promise<UserOption[]> => api.call(usersContract.listAll, { signal }),
  });
}

const notesKey = (ticketId: number) => ['ticket-notes', ticketId] as const;

export function useTicketNotes(ticketId: number, contactId: number) {
  return useQuery({
    queryKey: notesKey(ticketId),
    queryFn: ({ signal }) => api.call(ticketNotes.list, { query: { ticketId, contactId }, signal }),
  });
}

export function useAddNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: TicketNoteCreate) => api.call(ticketNotes.create, { body: data }),
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
    mutationFn: (id: number) => api.call(ticketNotes.remove, { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<TicketNote[]>(notesKey(ticketId), (list) =>
        list?.filter((item) => item.id !== id),
      );
    },
  });
}
