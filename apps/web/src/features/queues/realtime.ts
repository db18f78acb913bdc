import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { queueOptionsKeys, queuesKey, removeQueueFromCache } from './api';

/** The queue list and an open bot menu follow the company's changes, wherever they were made. */
export function useQueuesRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('queue', (event) => {
    const id = Number(event?.action === 'delete' ? event.queueId : event?.queue?.id);
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
