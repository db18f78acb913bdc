import { type HelpCreate, helpsContract as helps } from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

export const helpsKeys = { all: ['helps', 'all'] as const };

/** Every help video, for the /helps grid and the super user's list. */
export function useHelps() {
  return useQuery({
    queryKey: helpsKeys.all,
    queryFn: ({ signal }) => api.call(helps.listAll, { signal }),
  });
}

export function useSaveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: { id?: number; data: HelpCreate }) =>
      id === undefined
        ? api.call(helps.create, { body: data })
        : api.call(helps.update, { params: { id }, body: data }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: helpsKeys.all }),
  });
}

export function useDeleteHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: number) => api.call(helps.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: helpsKeys.all }),
  });
}
