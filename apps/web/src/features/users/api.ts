import {
  isWholeUser,
  type User,
  type UserCreate,
  type UserUpdate,
  usersContract as users,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { patchUserCaches, usersKeys } from './users.cache';

export function useUsers(searchParam: string) {
  return useInfiniteQuery({
    queryKey: usersKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      const page = await api.call(users.list, {
        query: { searchParam, pageNumber: pageParam },
        signal,
      });
      // The users page is an admin's, whose pages hold whole records only.
      return { ...page, users: page.users.filter(isWholeUser) };
    },
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useUser(id: number | null) {
  return useQuery({
    queryKey: usersKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => api.call(users.get, { params: { id: id! }, signal }),
  });
}

export type SaveUserInput = { id: number; data: UserUpdate } | { id?: undefined; data: UserCreate };

const isUser = (value: unknown): value is User =>
  typeof value === 'object' && value !== null && typeof (value as User).id === 'number';

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveUserInput) =>
      id === undefined
        ? api.call(users.create, { body: data })
        : api.call(users.update, { params: { id }, body: data }),
    onSuccess: (saved, { id }) => {
      if (isUser(saved)) {
        patchUserCaches(queryClient, { user: saved });
      } else {
        void queryClient.invalidateQueries({ queryKey: usersKeys.lists });
        if (id !== undefined)
          void queryClient.invalidateQueries({ queryKey: usersKeys.detail(id) });
      }
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(users.remove, { params: { id } }),
    onSuccess: (_result, id) => patchUserCaches(queryClient, { removedId: id }),
  });
}
