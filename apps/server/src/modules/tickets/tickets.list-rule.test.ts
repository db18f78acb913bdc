import {
  type Ticket,
  type TicketListQuery,
  ticketListFilter,
  ticketListKeeps,
} from '@atendi/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { inboxCompany, inboxFactories } from '../../../test/inbox';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
});
afterAll(() => t.stop());

type ListQuery = Omit<TicketListQuery, 'pageNumber'>;

/** The query string of GET /tickets as the clients send it (lists as comma lists). */
const queryString = (query: ListQuery) =>
  Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');

describe('the ticket lists keep what the shared list rule keeps (ticketListKeeps)', () => {
  it('the server answers, for every filter, the tickets the rule the web uses would keep', async () => {
    const company = await inboxCompany(t);
    const { companyId } = company;
    const me = company.admin.id;
    const other = await t.make.user(companyId, { name: 'Outra Pessoa' });
    const q1 = await t.make.queue(companyId);
    const q2 = await t.make.queue(companyId);
    const t1 = await make.tag(companyId);
    const t2 = await make.tag(companyId);
    const whatsappId = company.connection.id;
    // 01 March in São Paulo; the second is 23:00 there, already the 2nd in UTC.
    const first = new Date('2026-03-01T12:00:00Z');
    const lateFirst = new Date('2026-03-02T02:00:00Z');
    const second = new Date('2026-03-02T15:00:00Z');
    const shapes = [
      { status: 'pending', userId: null, queueId: null, unreadMessages: 2, at: first },
      { status: 'pending', userId: null, queueId: q1.id, unreadMessages: 0, at: lateFirst },
      { status: 'pending', userId: null, queueId: q2.id, unreadMessages: 1, at: second },
      { status: 'open', userId: me, queueId: q1.id, unreadMessages: 0, at: first },
      { status: 'open', userId: me, queueId: null, unreadMessages: 3, at: second },
      { status: 'open', userId: other.id, queueId: q1.id, unreadMessages: 1, at: lateFirst },
      { status: 'open', userId: other.id, queueId: q2.id, unreadMessages: 0, at: second },
      { status: 'closed', userId: me, queueId: q2.id, unreadMessages: 0, at: lateFirst },
      { status: 'closed', userId: other.id, queueId: q1.id, unreadMessages: 0, at: first },
      { status: 'closed', userId: null, queueId: null, unreadMessages: 0, at: second },
    ] as const;
    const created: number[] = [];
    for (const [index, shape] of shapes.entries()) {
      const { at, ...fields } = shape;
      const row = await make.ticket(companyId, {
        ...fields,
        whatsappId,
        createdAt: at,
        updatedAt: new Date(at.getTime() + index * 60_000),
      });
      if (index % 2 === 0) await make.tagTicket(companyId, row.id, t1.id);
      if (index % 3 === 0) await make.tagTicket(companyId, row.id, t2.id);
      created.push(row.id);
    }
    const api = t.as(company.adminToken);
    const all: Ticket[] = [];
    for (const id of created) all.push((await api.get(`/tickets/${id}`)).json());

    const queries: ListQuery[] = [
      {},
      { status: 'open' },
      { status: 'pending' },
      { status: 'closed' },
      { showAll: true },
      { showAll: true, status: 'closed' },
      { queueIds: [q1.id] },
      { showAll: true, queueIds: [q1.id, q2.id] },
      { showAll: true, users: [other.id] },
      { status: 'open', users: [me] },
      { showAll: true, tags: [t1.id] },
      { showAll: true, tags: [t1.id, t2.id] },
      { withUnreadMessages: true },
      { showAll: true, withUnreadMessages: true, status: 'pending' },
      { showAll: true, date: '2026-03-01' },
      { showAll: true, updatedAt: '2026-03-02' },
      { date: '2026-03-01', status: 'open' },
    ];
    const answers = new Set<string>();
    for (const query of queries) {
      const label = JSON.stringify(query);
      const listed = (await api.get(`/tickets?${queryString(query)}`)).json() as {
        tickets: Ticket[];
      };
      const kept = all
        .filter((ticket) => ticketListKeeps(ticketListFilter(query, true), ticket, me))
        .map((ticket) => ticket.id)
        .sort((a, b) => a - b);
      expect(
        listed.tickets.map((ticket) => ticket.id).sort((a, b) => a - b),
        label,
      ).toEqual(kept);
      answers.add(kept.join(','));
    }
    // The filters tell the tickets apart: not a rule that keeps all or nothing.
    expect(answers.size).toBeGreaterThan(12);
    expect(answers.has('')).toBe(false);
  });

  it('a search is left to the server, and show-all only counts for those who may', () => {
    const ticket: Parameters<typeof ticketListKeeps>[1] = {
      status: 'open',
      userId: 2,
      queueId: null,
      tags: [],
      unreadMessages: 0,
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
    };
    expect(ticketListKeeps(ticketListFilter({ searchParam: 'boleto' }, true), ticket, 1)).toBe(
      null,
    );
    expect(ticketListKeeps(ticketListFilter({ showAll: true }, true), ticket, 1)).toBe(true);
    expect(ticketListKeeps(ticketListFilter({ showAll: true }, false), ticket, 1)).toBe(false);
    expect(ticketListKeeps(ticketListFilter({ searchParam: '  ' }, false), ticket, 2)).toBe(true);
  });
});
