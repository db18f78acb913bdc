import {
  type ContactListCreate,
  type ContactListItemCreate,
  type ContactListItemUpdate,
  contactListsContract as lists,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import {
  contactListsKeys,
  patchContactListCaches,
  patchContactListItemCaches,
} from './contact-lists.cache';

/** The spec's example sheet, served with the web app. */
export const EXAMPLE_SHEET_HREF = '/planilha.xlsx';

export function useContactLists(searchParam: string) {
  return useInfiniteQuery({
    queryKey: contactListsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(lists.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useContactList(id: number) {
  return useQuery({
    queryKey: contactListsKeys.one(id),
    queryFn: ({ signal }) => api.call(lists.get, { params: { id }, signal }),
  });
}

export function useSaveContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: { id?: number; data: ContactListCreate }) =>
      id === undefined
        ? api.call(lists.create, { body: data })
        : api.call(lists.update, { params: { id }, body: data }),
    onSuccess: (record) => patchContactListCaches(queryClient, { record }),
  });
}

export function useDeleteContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(lists.remove, { params: { id } }),
    onSuccess: (_result, id) => patchContactListCaches(queryClient, { removedId: id }),
  });
}

export function useContactListItems(contactListId: number, searchParam: string) {
  return useInfiniteQuery({
    queryKey: contactListsKeys.itemList(contactListId, searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(lists.listItems, {
        query: { contactListId, searchParam, pageNumber: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export type SaveItemInput =
  | { id: number; data: ContactListItemUpdate }
  | { id?: undefined; data: ContactListItemCreate };

export function useSaveContactListItem(contactListId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveItemInput) =>
      id === undefined
        ? api.call(lists.createItem, { body: data })
        : api.call(lists.updateItem, { params: { id }, body: data }),
    onSuccess: (record) => patchContactListItemCaches(queryClient, contactListId, { record }),
  });
}

export function useDeleteContactListItem(contactListId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(lists.removeItem, { params: { id } }),
    onSuccess: (_result, id) =>
      patchContactListItemCaches(queryClient, contactListId, { removedId: id }),
  });
}

/** Sends the sheet; the server reads it as it arrives and answers with the summary. */
export function useImportContactList(contactListId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.call(lists.upload, { params: { id: contactListId }, body: form });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contactListsKeys.items(contactListId) });
      void queryClient.invalidateQueries({ queryKey: contactListsKeys.one(contactListId) });
    },
  });
}
