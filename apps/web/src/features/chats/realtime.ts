import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCompanyEvent, useSocket } from '../../app/socket';
import { appendChatMessage, chatsKeys, patchChatCaches } from './chats.cache';

/**
 * `company-{id}-chat`, which only a chat's members hear: chats created, changed, read or deleted
 * and new messages keep the list, the popover's count and an open pane current.
 */
export function useChatsRealtime() {
  const queryClient = useQueryClient();
  const socket = useSocket();
  // what was said while the socket was away (or before it first connected) is read again
  useEffect(() => {
    if (!socket) return;
    const reload = () => void queryClient.invalidateQueries({ queryKey: chatsKeys.all });
    socket.on('connect', reload);
    return () => {
      socket.off('connect', reload);
    };
  }, [socket, queryClient]);
  useCompanyEvent('chat', (event) => {
    if (event.action === 'delete') {
      patchChatCaches(queryClient, { removedId: Number(event.id) });
      return;
    }
    patchChatCaches(queryClient, { chat: event.chat });
    if (event.action === 'new-message') appendChatMessage(queryClient, event.newMessage);
  });
}
