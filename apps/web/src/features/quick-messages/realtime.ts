import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchQuickMessageCaches } from './quick-messages.cache';

/** Quick replies follow the changes the user may see: its own and the shared ('geral') ones. */
export function useQuickMessagesRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('quickmessage', (event) => {
    if (event?.action === 'delete') {
      if (event.id !== undefined)
        patchQuickMessageCaches(queryClient, { removedId: Number(event.id) });
      return;
    }
    if (event?.record && typeof event.record.id === 'number') {
      patchQuickMessageCaches(queryClient, { record: event.record });
    }
  });
}
