import {
  queueIntegrationsContract as integrations,
  type QueueIntegrationCreate,
  type QueueIntegrationUpdate,
  type TestSession,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { everyPage } from '../../app/everyPage';

export const integrationsKeys = {
  all: ['queueIntegrations'] as const,
  list: (searchParam: string) => ['queueIntegrations', 'list', searchParam] as const,
  options: ['queueIntegrations', 'options'] as const,
  deliveries: (id: number) => ['queueIntegrations', 'deliveries', id] as const,
};

export function useQueueIntegrations(searchParam: string) {
  return useInfiniteQuery({
    queryKey: integrationsKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(integrations.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The company's integrations as choices (the queue dialog); none without the plan. */
export function useIntegrationOptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: integrationsKeys.options,
    enabled,
    meta: { silent: true },
    queryFn: async ({ signal }) => {
      const pages = await everyPage((pageNumber) =>
        api.call(integrations.list, { query: { pageNumber }, signal }),
      );
      return pages.flatMap((page) =>
        page.queueIntegrations.map(({ id, name, type }) => ({ id, name, type })),
      );
    },
  });
}

export type SaveIntegrationInput =
  | { id: number; data: QueueIntegrationUpdate }
  | { id?: undefined; data: QueueIntegrationCreate };

export function useSaveQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveIntegrationInput) =>
      id === undefined
        ? api.call(integrations.create, { body: data })
        : api.call(integrations.update, { params: { id }, body: data }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKeys.all }),
  });
}

export function useDeleteQueueIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(integrations.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationsKeys.all }),
  });
}

export function useTestSession() {
  return useMutation({
    meta: { silent: true },
    mutationFn: (body: TestSession) => api.call(integrations.testSession, { body }),
  });
}

export function useDeliveries(id: number) {
  return useInfiniteQuery({
    queryKey: integrationsKeys.deliveries(id),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(integrations.deliveries, {
        params: { id },
        query: { pageNumber: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}
