import { OPEN_LANE, type Ticket } from '@atendi/shared';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { kanbanKeys, laneOf, placeTicket } from './kanban.cache';

const ticket = (id: number, overrides: Partial<Ticket> = {}): Ticket => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  status: 'open',
  lastMessage: `mensagem ${id}`,
  unreadMessages: 0,
  isGroup: false,
  chatbot: false,
  useIntegration: false,
  integrationId: null,
  promptId: null,
  contactId: id,
  contact: {
    id,
    name: `Contato ${id}`,
    number: '5511999999999',
    profilePicUrl: '',
    isGroup: false,
  },
  userId: null,
  user: null,
  queueId: null,
  queue: null,
  whatsappId: null,
  whatsapp: null,
  tags: [],
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...overrides,
});

const DOING = { id: 7, name: 'Fazendo', color: '#ff9800' };
const VIP = { id: 9, name: 'VIP', color: '#000000' };

function board(queueIds: number[] = []) {
  const client = new QueryClient();
  client.setQueryData(kanbanKeys.tags, {
    lista: [{ ...DOING, kanban: 1, createdAt: '', updatedAt: '' }],
  });
  const lane = (id: number, tickets: Ticket[]) =>
    client.setQueryData(kanbanKeys.lane(id, queueIds), {
      pages: [{ tickets, hasMore: false }],
      pageParams: [1],
    });
  const ids = (id: number) =>
    client
      .getQueryData<{ pages: { tickets: Ticket[] }[] }>(kanbanKeys.lane(id, queueIds))!
      .pages.flatMap((page) => page.tickets.map((item) => item.id));
  return { client, lane, ids };
}

describe('laneOf', () => {
  it("is the ticket's kanban tag, the oldest of several, or 'Em aberto' when it has none", () => {
    const kanban = new Set([DOING.id, VIP.id]);
    expect(laneOf(ticket(1), kanban)).toBe(OPEN_LANE);
    expect(laneOf(ticket(1, { tags: [VIP] }), new Set([DOING.id]))).toBe(OPEN_LANE);
    expect(laneOf(ticket(1, { tags: [VIP, DOING] }), kanban)).toBe(DOING.id);
    expect(laneOf(ticket(1, { tags: [DOING, VIP] }), kanban)).toBe(DOING.id);
  });
});

describe('placeTicket', () => {
  it('moves a card to the lane of its new tag, first there', () => {
    const { client, lane, ids } = board();
    lane(OPEN_LANE, [ticket(1), ticket(2)]);
    lane(DOING.id, [ticket(3, { tags: [DOING] })]);
    placeTicket(client, { ticket: ticket(2, { tags: [DOING] }) });
    expect(ids(OPEN_LANE)).toEqual([1]);
    expect(ids(DOING.id)).toEqual([2, 3]);
  });

  it('takes a closed or deleted ticket off the board', () => {
    const { client, lane, ids } = board();
    lane(OPEN_LANE, [ticket(1), ticket(2)]);
    placeTicket(client, { ticket: ticket(1, { status: 'closed' }) });
    placeTicket(client, { removedId: 2 });
    expect(ids(OPEN_LANE)).toEqual([]);
  });

  it('leaves out a ticket of a queue the board does not show', () => {
    const { client, lane, ids } = board([5]);
    lane(OPEN_LANE, []);
    placeTicket(client, { ticket: ticket(1, { queueId: 6 }) });
    placeTicket(client, { ticket: ticket(2, { queueId: 5 }) });
    placeTicket(client, { ticket: ticket(3, { queueId: null }) });
    expect(ids(OPEN_LANE)).toEqual([3, 2]);
  });
});
