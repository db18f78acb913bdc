import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { messageRow } from '../tickets/tickets.fixtures';
import { applyMessage, type MessagesData, messagesKey } from './api';

const at = (second: number) => new Date(Date.UTC(2026, 0, 10, 12, 5, second)).toISOString();

function conversation(...messages: ReturnType<typeof messageRow>[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData<MessagesData>(messagesKey(1), {
    pages: [{ messages, count: messages.length, hasMore: false }],
    pageParams: [1],
  });
  const held = () => queryClient.getQueryData<MessagesData>(messagesKey(1))!.pages[0]!.messages;
  return { queryClient, held };
}

describe('applyMessage', () => {
  it("keeps the phone's read tick when the send's older answer arrives after it", () => {
    const { queryClient, held } = conversation(messageRow(7, { fromMe: true, ack: 1 }));
    // the event: the phone read it; then the answer to the send, read before that
    applyMessage(queryClient, messageRow(7, { fromMe: true, ack: 4, updatedAt: at(2) }));
    applyMessage(queryClient, messageRow(7, { fromMe: true, ack: 2, updatedAt: at(1) }));
    expect(held().map((message) => message.ack)).toEqual([4]);
  });

  it('takes a newer version, and adds a message it does not hold', () => {
    const { queryClient, held } = conversation(messageRow(7, { ack: 2, updatedAt: at(1) }));
    applyMessage(queryClient, messageRow(7, { ack: 0, updatedAt: at(3) }));
    applyMessage(queryClient, messageRow(8, { updatedAt: at(4) }));
    expect(held().map((message) => [message.id, message.ack])).toEqual([
      [7, 0],
      [8, 2],
    ]);
  });
});
