import type { Chat, ChatsPage } from '@atendi/shared';
import { type InfiniteData, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { chatsKeys, patchChatCaches, unreadsOf } from './chats.cache';

const ME = 1;

function chat(unreads: number): Chat {
  return {
    id: 7,
    uuid: '0b8f5a52-3f0e-4a43-9a57-3c1d8f1f2a10',
    title: 'Escala do sábado',
    ownerId: ME,
    lastMessage: unreads ? `mensagem ${unreads}` : '',
    createdAt: '2026-11-28T10:00:00.000Z',
    updatedAt: `2026-11-28T10:0${unreads}:00.000Z`,
    users: [
      { userId: ME, unreads, user: { id: ME, name: 'Admin' } },
      { userId: 2, unreads: 0, user: { id: 2, name: 'Bruno' } },
    ],
  };
}

describe('patchChatCaches', () => {
  it("counts a message announced while the page's first answer is on its way", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // What the server holds: one unread when the first answer is read, two by the second.
    let stored = chat(1);
    const answers: (() => void)[] = [];
    const observer = new QueryObserver<InfiniteData<ChatsPage>>(queryClient, {
      queryKey: chatsKeys.list(),
      queryFn: () => {
        const read = stored;
        return new Promise((resolve) =>
          answers.push(() =>
            resolve({ pages: [{ records: [read], count: 1, hasMore: false }], pageParams: [1] }),
          ),
        );
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await expect.poll(() => answers.length).toBe(1);

    // The second message is stored and announced before the first answer arrives: with no
    // list to patch yet, the event alone would be lost.
    stored = chat(2);
    patchChatCaches(queryClient, { chat: stored });
    answers[0]!();
    await expect
      .poll(() => {
        const first = queryClient.getQueryData<InfiniteData<ChatsPage>>(chatsKeys.list());
        return first ? unreadsOf(first.pages[0]!.records[0]!, ME) : undefined;
      })
      .toBe(2);
    expect(answers).toHaveLength(1);
    unsubscribe();
  });
});
