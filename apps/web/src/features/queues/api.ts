import { queuesContract } from '@atendi/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

export const queuesKey = ['queues', 'list'] as const;

export function useQueues({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queuesKey,
    enabled,
    queryFn: ({ signal }): Promise<QueueSummary[]> => api.call(queuesContract.list, { signal }),
  });
}
