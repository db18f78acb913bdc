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
    queryFn: ({ signal }) => api.get<QueueSummary[]>('/queue', { signal }),
  });
}
