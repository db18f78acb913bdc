import {
  type Chat,
  type ChatCreate,
  type ChatUpdate,
  chatsContract as chats,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { appendChatMessage, chatsKeys, patchChatCaches } from './chats.cache';

/** The signed-in user's chats, the latest activity first (the spec: failures stay silent). */
export function useChats(searchParam = '', { enabled = true } = {}) {
  return useInfiniteQuery({
    queryKey: chatsKeys.list(searchParam),
    enabled,
    initialPageParam: 1,
    meta: { silent: true },
    queryFn: ({ pageParam, signal }) =>
      api.call(chats.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** One chat by the uuid of its address. */
export function useChat(uuid: string | undefined) {
  return useQuery({
    queryKey: chatsKeys.one(uuid ?? ''),
    enabled: Boolean(uuid),
    meta: { silent: true },
    retry: false,
    queryFn: ({ signal }) => api.call(chats.get, { params: { id: uuid! }, signal }),
  });
}

/** A chat's messages: the newest page first, older pages as the pane scrolls up. */
export function useChatMessages(chatId: number | undefined) {
  return useInfiniteQuery({
    queryKey: chatsKeys.messages(chatId ?? 0),
    enabled: chatId !== undefined,
    initialPageParam: 1,
    meta: { silent: true },
    queryFn: ({ pageParam, signal }) =>
      api.call(chats.messages, {
        params: { id: chatId! },
        query: { pageNumber: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useSaveChat() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: { id?: number; data: ChatCreate | ChatUpdate }) =>
      id === undefined
        ? api.call(chats.create, { body: data as ChatCreate })
        : api.call(chats.update, { params: { id }, body: data }),
    onSuccess: (chat: Chat) => patchChatCaches(queryClient, { chat }),
  });
}

export function useDeleteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(chats.remove, { params: { id } }),
    onSuccess: (_result, id) => patchChatCaches(queryClient, { removedId: id }),
  });
}

export function useSendChatMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ chatId, message }: { chatId: number; message: string }) =>
      api.call(chats.send, { params: { id: chatId }, body: { message } }),
    onSuccess: (message) => appendChatMessage(queryClient, message),
  });
}

/** Clears the signed-in user's unread count of a chat. */
export function useMarkChatRead() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ chatId, userId }: { chatId: number; userId: number }) =>
      api.call(chats.read, { params: { id: chatId }, body: { userId } }),
    onSuccess: (chat) => patchChatCaches(queryClient, { chat }),
  });
}
