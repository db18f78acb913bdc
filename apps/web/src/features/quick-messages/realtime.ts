import type { QuickMessage } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchQuickMessageCaches } from './quick-messages.cache';

export interface QuickMessageEvent {
  action: 'create' | 'update' | 'delete';
  record?: Partial<QuickMessage> & { id: number };
  id?: number;
}

/**
 * The original product's `company-{id}-quickmessage` event, named here because the shared topic
 * list does not have it yet.
 */
export function useQuickMessagesRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<QuickMessageEvent>(`company-${companyId}-quickmessage`, (event) => {
    if (event?.action === 'delete') {
      const id = event.id ?? event.record?.id;
      if (id !== undefined) patchQuickMessageCaches(queryClient, { removedId: Number(id) });
      return;
    }
    if (event?.record && typeof event.record.id === 'number') {
      patchQuickMessageCaches(queryClient, { record: event.record });
    }
  });
}
