import {
  type Message,
  messagesContract as messages,
  quickMessagesContract,
  type Ticket,
} from '@atendi/shared';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api, apiBaseUrl } from '../../app/api';
import { setLiveQueryData } from '../../app/liveCache';

export interface MessagesPage {
  /** One page in the order written; page 1 is the newest. */
  messages: Message[];
  ticket?: Ticket;
  count?: number;
  hasMore: boolean;
}

export type MessagesData = InfiniteData<MessagesPage>;

export const messagesKey = (ticketId: number) => ['messages', ticketId] as const;

/** Oldest first, each message once (pages read while messages arrived overlap). */
export function flattenMessages(data: MessagesData | undefined): Message[] {
  if (!data) return [];
  const seen = new Set<number>();
  const result: Message[] = [];
  for (let index = data.pages.length - 1; index >= 0; index -= 1) {
    for (const message of data.pages[index]!.messages) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      result.push(message);
    }
  }
  return result;
}

export function useMessages(ticketId: number | undefined, { enabled = true } = {}) {
  return useInfiniteQuery({
    queryKey: messagesKey(ticketId ?? 0),
    enabled: enabled && ticketId !== undefined,
    initialPageParam: 1,
    // a conversation is fresh from its events while open; reopening it reads it again
    staleTime: 0,
    queryFn: ({ pageParam, signal }): Promise<MessagesPage> =>
      api.call(messages.list, {
        params: { ticketId: ticketId! },
        query: { pageNumber: pageParam },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/**
 * A created or changed message into its conversation's cache (realtime or HTTP answer). The two
 * race: a send's answer, read before the phone read the message, can arrive after the event
 * that carries the read tick, so a version older than the one held is ignored.
 */
export function applyMessage(queryClient: QueryClient, message: Message): void {
  setLiveQueryData<MessagesData>(queryClient, messagesKey(message.ticketId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const held = data.pages.flatMap((page) => page.messages).find((item) => item.id === message.id);
    if (held) {
      if (Date.parse(message.updatedAt) < Date.parse(held.updatedAt)) return data;
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: page.messages.map((item) => (item.id === message.id ? message : item)),
        })),
      };
    }
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first!, messages: [...first!.messages, message] }, ...rest] };
  });
}

export interface SendInput {
  body: string;
  quotedMsg?: Message | null;
  signMessage: boolean;
  files?: File[];
}

export function useSendMessage(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, quotedMsg, signMessage, files }: SendInput) => {
      if (files?.length) {
        const form = new FormData();
        for (const file of files) form.append('medias', file, file.name);
        form.append('body', body);
        form.append('signMessage', String(signMessage));
        if (quotedMsg) form.append('quotedMsgId', String(quotedMsg.id));
        return api.call(messages.send, { params: { ticketId }, body: form });
      }
      return api.call(messages.send, {
        params: { ticketId },
        body: { body, signMessage, quotedMsg: quotedMsg ? { id: quotedMsg.id } : null },
      });
    },
    onSuccess: (sent) => {
      for (const message of Array.isArray(sent) ? sent : [sent]) {
        if (message?.id) applyMessage(queryClient, message);
      }
    },
  });
}

export function useDeleteMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(messages.remove, { params: { id } }),
    onSuccess: (message) => {
      if (message?.id) applyMessage(queryClient, message);
    },
  });
}

/** Forwards messages, in the order written, into a ticket or a contact's live ticket. */
export function useForwardMessages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { messageIds: number[] } & ({ ticketId: number } | { contactId: number })) =>
      api.call(messages.forward, { body }),
    onSuccess: (result) => {
      for (const message of result.messages) applyMessage(queryClient, message);
    },
  });
}

/** Sends a failed message again (the server reuses its first id, so it arrives once). */
export function useRetryMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(messages.retry, { params: { id } }),
    onSuccess: (message) => {
      if (message?.id) applyMessage(queryClient, message);
    },
  });
}

export function useQuickMessages() {
  return useQuery({
    queryKey: ['quick-messages', 'list'],
    meta: { silent: true },
    queryFn: ({ signal }) => api.call(quickMessagesContract.listAll, { signal }),
  });
}

/** Media addresses are signed paths on the API server. */
export function mediaHref(url: string | null): string | undefined {
  if (!url) return undefined;
  if (/^https?:\/\//i.test(url)) return url;
  return `${apiBaseUrl()}${url.startsWith('/') ? url : `/${url}`}`;
}
