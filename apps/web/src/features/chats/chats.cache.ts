import type { Chat, ChatMessage, ChatMessagesPage, ChatsPage } from '@atendi/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { setLiveQueryData } from '../../app/liveCache';

export const chatsKeys = {
  all: ['chats'] as const,
  lists: ['chats', 'list'] as const,
  list: (searchParam = '') => ['chats', 'list', searchParam] as const,
  one: (ref: string | number) => ['chats', 'one', String(ref)] as const,
  messages: (chatId: number) => ['chats', 'messages', chatId] as const,
};

/** The signed-in member's unread messages in a chat. */
export const unreadsOf = (chat: Pick<Chat, 'users'>, userId: number): number =>
  chat.users.find((member) => member.userId === userId)?.unreads ?? 0;

const byActivity = (a: Chat, b: Chat) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/**
 * Puts a chat (new or changed) into every cached list, the latest activity first, or takes one
 * out; the chat read by its uuid follows too.
 */
export function patchChatCaches(
  queryClient: QueryClient,
  change: { chat: Chat } | { removedId: number },
) {
  for (const [key] of queryClient.getQueriesData({ queryKey: chatsKeys.lists })) {
    setLiveQueryData<InfiniteData<ChatsPage>>(queryClient, key, (data) => {
      if (!data) return data;
      const all = data.pages.flatMap((page) => page.records);
      const others = all.filter((chat) =>
        'chat' in change ? chat.id !== change.chat.id : chat.id !== change.removedId,
      );
      const records = 'chat' in change ? [change.chat, ...others].sort(byActivity) : others;
      const delta = records.length - all.length;
      // one page holds them all: later pages are refetched as they scroll in
      return {
        ...data,
        pages: data.pages.map((page, index) =>
          index === 0 ? { ...page, records, count: page.count + delta } : { ...page, records: [] },
        ),
      };
    });
  }
  if ('chat' in change) {
    queryClient.setQueryData(chatsKeys.one(change.chat.uuid), change.chat);
    queryClient.setQueryData(chatsKeys.one(change.chat.id), change.chat);
  } else {
    queryClient.removeQueries({ queryKey: chatsKeys.messages(change.removedId) });
  }
}

/** Adds a message to the chat's loaded messages (the newest page), once. */
export function appendChatMessage(queryClient: QueryClient, message: ChatMessage) {
  setLiveQueryData<InfiniteData<ChatMessagesPage>>(
    queryClient,
    chatsKeys.messages(message.chatId),
    (data) => {
      if (!data) return data;
      if (data.pages.some((page) => page.records.some((known) => known.id === message.id))) {
        return data;
      }
      const [newest, ...older] = data.pages;
      if (!newest) return data;
      return {
        ...data,
        pages: [
          { ...newest, records: [...newest.records, message], count: newest.count + 1 },
          ...older,
        ],
      };
    },
  );
}
