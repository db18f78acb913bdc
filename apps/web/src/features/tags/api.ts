import { type TagCreate, type TagUpdate, tagsContract as tags } from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { patchTagCaches, tagsKeys } from './tags.cache';

export function useTags(searchParam: string) {
  return useInfiniteQuery({
    queryKey: tagsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(tags.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export type SaveTagInput = { id: number; data: TagUpdate } | { id?: undefined; data: TagCreate };

export function useSaveTag() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors (a name in use) itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveTagInput) =>
      id === undefined
        ? api.call(tags.create, { body: data })
        : api.call(tags.update, { params: { id }, body: data }),
    onSuccess: (saved, { id }) => {
      if (saved && typeof saved.id === 'number') {
        // a new tag is on no ticket yet; an edited one keeps its listed count
        patchTagCaches(queryClient, {
          tag: id === undefined ? { ...saved, ticketsCount: 0 } : saved,
        });
      } else {
        void queryClient.invalidateQueries({ queryKey: tagsKeys.lists });
      }
    },
  });
}

export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(tags.remove, { params: { id } }),
    onSuccess: (_result, id) => patchTagCaches(queryClient, { removedId: id }),
  });
}
