import { companyEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { queueOptionsKeys, queuesKey, removeQueueFromCache } from './api';

export interface QueueEvent {
  action: 'create' | 'update' | 'delete';
  /** The server names the queue only: its token is for admins and is never emitted. */
  queue?: { id: number };
  queueId?: number;
}

/** The queue list and an open bot menu follow the company's changes, wherever they were made. */
export function useQueuesRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<QueueEvent>(companyEvent(companyId, 'queue'), (event) => {
    const id = Number(event?.queueId ?? event?.queue?.id);
    if (event?.action === 'delete' && Number.isInteger(id)) {
      removeQueueFromCache(queryClient, id);
      return;
    }
    void queryClient.invalidateQueries({ queryKey: queuesKey });
    // a change of the bot menu is announced as the queue's update
    if (Number.isInteger(id)) {
      void queryClient.invalidateQueries({ queryKey: queueOptionsKeys.queue(id) });
    }
  });
}
