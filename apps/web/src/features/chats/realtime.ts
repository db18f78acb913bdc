import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { appendChatMessage, patchChatCaches } from './chats.cache';

/**
 * `company-{id}-chat`, which only a chat's members hear: chats created, changed, read or deleted
 * and new messages keep the list, the popover's count and an open pane current.
 */
export function useChatsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('chat', (event) => {
    if (event.action === 'delete') {
      patchChatCaches(queryClient, { removedId: Number(event.id) });
      return;
    }
    patchChatCaches(queryClient, { chat: event.chat });
    if (event.action === 'new-message') appendChatMessage(queryClient, event.newMessage);
  });
}
