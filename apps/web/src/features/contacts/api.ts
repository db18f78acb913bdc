import {
  type Contact,
  type ContactCreate,
  type ContactUpdate,
  contactsContract as contacts,
  ticketsContract,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { type ContactsPage, contactsKeys, patchContactCaches } from './contacts.cache';
import { flattenPages } from './pagedCache';

/** Characters a contact search needs before it is asked (spec core 5). */
export const CONTACT_SEARCH_MIN = 3;

/** The contact pickers' search: asked from 3 characters on. */
export function useContactSearch(searchParam: string) {
  return useQuery({
    queryKey: ['contacts', 'search', searchParam],
    enabled: searchParam.length >= CONTACT_SEARCH_MIN,
    queryFn: ({ signal }) => api.call(contacts.list, { query: { searchParam }, signal }),
    select: (data) => data.contacts ?? [],
  });
}

export function useContact(id: number | undefined) {
  return useQuery({
    queryKey: ['contacts', 'detail', id],
    enabled: id !== undefined,
    meta: { silent: true },
    queryFn: ({ signal }) => api.call(contacts.get, { params: { id: id! }, signal }),
  });
}

export function useContacts(searchParam: string) {
  return useInfiniteQuery({
    queryKey: contactsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(contacts.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** Every contact of the search: the pages already loaded, then the rest asked page by page. */
export async function fetchAllContacts(
  searchParam: string,
  loaded: readonly ContactsPage[],
): Promise<Contact[]> {
  const pages = [...loaded];
  while (pages.length === 0 || pages[pages.length - 1]!.hasMore) {
    pages.push(
      await api.call(contacts.list, { query: { searchParam, pageNumber: pages.length + 1 } }),
    );
  }
  return flattenPages({ pages, pageParams: [] }, 'contacts');
}

export type SaveContactInput =
  | { id: number; data: ContactUpdate }
  | { id?: undefined; data: ContactCreate };

export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors (duplicated number) itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveContactInput) =>
      id === undefined
        ? api.call(contacts.create, { body: data })
        : api.call(contacts.update, { params: { id }, body: data }),
    onSuccess: (saved) => {
      if (saved && typeof saved.id === 'number')
        patchContactCaches(queryClient, { contact: saved });
      else void queryClient.invalidateQueries({ queryKey: contactsKeys.lists });
    },
  });
}

export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contacts.remove, { params: { id } }),
    onSuccess: (_result, id) => patchContactCaches(queryClient, { removedId: id }),
  });
}

export interface ImportResult {
  imported: number;
  skipped: number;
}

/** A CSV file, or with none the default connection's address book (the phone's contacts). */
export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return api.call(contacts.import);
      const form = new FormData();
      form.append('file', file);
      return api.call(contacts.import, { body: form });
    },
    // imports announce nothing live: the lists ask again
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactsKeys.lists }),
  });
}

export interface StartConversationInput {
  contactId: number;
  userId: number;
  queueId?: number | null;
}

/** POST /tickets for the contact, opened and assigned to the caller. */
export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    // ERR_OTHER_OPEN_TICKET is an answer to act on, not an error to toast
    meta: { silent: true },
    mutationFn: ({ contactId, userId, queueId }: StartConversationInput) =>
      api.call(ticketsContract.create, {
        body: { contactId, status: 'open', userId, ...(queueId ? { queueId } : {}) },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tickets'] }),
  });
}
