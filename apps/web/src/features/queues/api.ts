import {
  type Queue,
  type QueueCreate,
  type QueueOptionCreate,
  type QueueOptionUpdate,
  queueOptionsContract,
  queuesContract,
} from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { setLiveQueryData } from '../../app/liveCache';

export type QueueSummary = Pick<Queue, 'id' | 'name' | 'color'>;

export const queuesKey = ['queues', 'list'] as const;

/** Every queue of the company (GET /queue is not paged), by orderQueue then name. */
export function useQueues({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queuesKey,
    enabled,
    queryFn: ({ signal }): Promise<Queue[]> => api.call(queuesContract.list, { signal }),
  });
}

export type SaveQueueInput =
  | { id: number; data: Partial<QueueCreate> }
  | { id?: undefined; data: QueueCreate };

export function useSaveQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors (a colour in use) and the plan's limit itself
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveQueueInput) =>
      id === undefined
        ? api.call(queuesContract.create, { body: data })
        : api.call(queuesContract.update, { params: { id }, body: data }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queuesKey }),
  });
}

export function useDeleteQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(queuesContract.remove, { params: { id } }),
    onSuccess: (_result, id) => removeQueueFromCache(queryClient, id),
  });
}

export function removeQueueFromCache(queryClient: ReturnType<typeof useQueryClient>, id: number) {
  setLiveQueryData<Queue[]>(queryClient, queuesKey, (list) =>
    list?.filter((queue) => queue.id !== id),
  );
  queryClient.removeQueries({ queryKey: queueOptionsKeys.queue(id) });
}

export const queueOptionsKeys = {
  queue: (queueId: number) => ['queues', 'options', queueId] as const,
  level: (queueId: number, parentId: number | null) =>
    ['queues', 'options', queueId, parentId ?? 'root'] as const,
};

/** One level of a queue's bot menu (the first when `parentId` is null), each with its children. */
export function useQueueOptions(queueId: number, parentId: number | null) {
  return useQuery({
    queryKey: queueOptionsKeys.level(queueId, parentId),
    queryFn: ({ signal }) =>
      api.call(queueOptionsContract.list, {
        query: parentId === null ? { queueId } : { queueId, parentId },
        signal,
      }),
  });
}

export type SaveQueueOptionInput =
  | { id: number; data: QueueOptionUpdate }
  | { id?: undefined; data: QueueOptionCreate };

export function useSaveQueueOption(queueId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // the option's form places a number in use on its field
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveQueueOptionInput) =>
      id === undefined
        ? api.call(queueOptionsContract.create, { body: data })
        : api.call(queueOptionsContract.update, { params: { id }, body: data }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueOptionsKeys.queue(queueId) }),
  });
}

export function useDeleteQueueOption(queueId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(queueOptionsContract.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueOptionsKeys.queue(queueId) }),
  });
}
