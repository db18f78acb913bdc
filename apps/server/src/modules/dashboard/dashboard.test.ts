import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, inboxCompany, inboxFactories } from '../../../test/inbox';
import { reportsScreenQuery } from '../../../test/original-screens';
import { companies, ticketDayStats, tickets, userRatings } from '../../db/schema';
import { TenantDb } from '../../db/tenant';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let ana: Awaited<ReturnType<typeof agent>>;
let bruno: Awaited<ReturnType<typeof agent>>;

const at = (iso: string) => new Date(iso);

/**
 * Company "home" keeps its default clock, America/Sao_Paulo (UTC-3). Its period 2025-03-10 to
 * 2025-03-11 runs from 2025-03-10T03:00Z to 2025-03-12T03:00Z; several rows sit within three
 * hours of a midnight, so reading the days in UTC (or Tokyo) would move them.
 */
beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  ana = await agent(t, home.companyId, { name: 'Ana', lastSeenAt: new Date() });
  bruno = await agent(t, home.companyId, { name: 'Bruno' });
  const ticket = (companyId: number, fields: Parameters<typeof make.ticket>[1]) =>
    make.ticket(companyId, {
      whatsappId: companyId === home.companyId ? home.connection.id : other.connection.id,
      ...fields,
    });
  const closed = (
    companyId: number,
    userId: number | null,
    created: string,
    accepted: string,
    finished: string,
  ) =>
    ticket(companyId, {
      status: 'closed',
      userId,
      createdAt: at(created),
      acceptedAt: at(accepted),
      finishedAt: at(finished),
    });

  // Waited 10, talked 30 minutes: 10/03 09:00 local.
  const t1 = await closed(
    home.companyId,
    ana.user.id,
    '2025-03-10T12:00:00Z',
    '2025-03-10T12:10:00Z',
    '2025-03-10T12:40:00Z',
  );
  // 10/03 23:30 to 23:59 local (the 11th in UTC): waited 20, talked 9.
  const t2 = await closed(
    home.companyId,
    bruno.user.id,
    '2025-03-11T02:30:00Z',
    '2025-03-11T02:50:00Z',
    '2025-03-11T02:59:00Z',
  );
  // 11/03 22:00 to 23:30 local (the 12th in UTC): waited 30, talked 60.
  const t3 = await closed(
    home.companyId,
    ana.user.id,
    '2025-03-12T01:00:00Z',
    '2025-03-12T01:30:00Z',
    '2025-03-12T02:30:00Z',
  );
  // 09/03 22:00 to 23:00 local (the 10th in UTC): before the period.
  await closed(
    home.companyId,
    ana.user.id,
    '2025-03-10T01:00:00Z',
    '2025-03-10T01:05:00Z',
    '2025-03-10T02:00:00Z',
  );
  // Open now, created 10/03 12:00 local; waiting now, created 11/03 23:00 local.
  await ticket(home.companyId, {
    status: 'open',
    userId: bruno.user.id,
    createdAt: at('2025-03-10T15:00:00Z'),
    acceptedAt: at('2025-03-10T15:05:00Z'),
  });
  await ticket(home.companyId, { status: 'pending', createdAt: at('2025-03-12T02:00:00Z') });

  const rate = (id: number, userId: number, rate: number, when: string) =>
    new TenantDb(t.database.db, home.companyId)
      .insert(userRatings, { ticketId: id, userId, rate, createdAt: at(when) })
      .then(() => undefined);
  await rate(t1.id, ana.user.id, 3, '2025-03-10T13:00:00Z');
  await rate(t3.id, ana.user.id, 2, '2025-03-12T02:45:00Z');
  // 12/03 00:30 local: after the period.
  await rate(t2.id, bruno.user.id, 1, '2025-03-12T03:30:00Z');

  // New contacts: 10/03 00:30 and 11/03 23:59 local count; 09/03 23:59 and a group do not.
  await make.contact(home.companyId, { createdAt: at('2025-03-10T03:30:00Z') });
  await make.contact(home.companyId, { createdAt: at('2025-03-12T02:59:00Z') });
  await make.contact(home.companyId, { createdAt: at('2025-03-10T02:59:00Z') });
  await make.contact(home.companyId, { createdAt: at('2025-03-10T12:00:00Z'), isGroup: true });

  // Another company's work in the same hours: never counted.
  const stranger = await t.make.user(other.companyId, { name: 'Ana' });
  for (const status of ['open', 'pending'] as const) {
    await ticket(other.companyId, { status, createdAt: at('2025-03-10T12:00:00Z') });
  }
  await closed(
    other.companyId,
    stranger.id,
    '2025-03-10T12:00:00Z',
    '2025-03-10T14:00:00Z',
    '2025-03-10T18:00:00Z',
  );
  await make.contact(other.companyId, { createdAt: at('2025-03-10T12:00:00Z') });
}, 60_000);
afterAll(() => t.stop());

const asAdmin = async (url: string, token: string) => {
  const response = await t.as(token).get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const get = (url: string, token = home.adminToken) => asAdmin(url, token);

const PERIOD = 'date_from=2025-03-10&date_to=2025-03-11';
/** As the original client sends it, with a companyId (another company's here) that is ignored. */
const charts = () => `initialDate=2025-03-10&finalDate=2025-03-11&companyId=${other.companyId}`;

const expectedDashboard = {
  counters: {
    supportHappening: 1,
    supportPending: 1,
    supportFinished: 3,
    leads: 2,
    avgSupportTime: 33,
    avgWaitTime: 20,
  },
  attendants: [
    {
      id: expect.any(Number),
      name: 'Ana',
      rating: 2.5,
      avgSupportTime: 45,
      tickets: 2,
      online: true,
    },
    {
      id: expect.any(Number),
      name: 'Bruno',
      rating: null,
      avgSupportTime: 9,
      tickets: 1,
      online: false,
    },
    {
      id: expect.any(Number),
      name: 'Company Admin',
      rating: null,
      avgSupportTime: 0,
      tickets: 0,
      online: false,
    },
  ],
};

const perDay = {
  data: [
    { data: '10/03/2025', total: 3 },
    { data: '11/03/2025', total: 2 },
  ],
  count: 5,
};

const hoursOf10 = () => {
  const data = Array.from({ length: 24 }, (_, horario) => ({ horario, total: 0 }));
  data[9]!.total = 1;
  data[12]!.total = 1;
  data[23]!.total = 1;
  return { data, count: 3 };
};

describe('GET /dashboard', () => {
  it("counts the period's work on the company's days, and only the company's", async () => {
    const body = await get(`/dashboard?${PERIOD}&companyId=${other.companyId}`);
    expect(body).toEqual(expectedDashboard);
    expect(body.attendants.map((a: { id: number }) => a.id)).toEqual([
      ana.user.id,
      bruno.user.id,
      home.admin.id,
    ]);
  });

  it('an open end takes every day on that side', async () => {
    const from = await get('/dashboard?date_from=2025-03-11');
    // t3 only (11/03 local); t2 finished on the 10th, local.
    expect(from.counters).toMatchObject({
      supportFinished: 1,
      avgSupportTime: 60,
      avgWaitTime: 30,
    });
    const to = await get('/dashboard?date_to=2025-03-10');
    // t1, t2 and the one of 09/03.
    expect(to.counters).toMatchObject({ supportFinished: 3, leads: 2 });
  });

  it('the last N days are calendar days of the company, today included', async () => {
    const fresh = await inboxCompany(t);
    const now = Date.now();
    const minutes = (n: number) => new Date(now - n * 60_000);
    const days = (n: number) => minutes(n * 24 * 60);
    await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      status: 'closed',
      createdAt: minutes(3),
      acceptedAt: minutes(2),
      finishedAt: minutes(1),
    });
    await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      status: 'closed',
      createdAt: days(8),
      acceptedAt: days(8),
      finishedAt: days(8),
    });
    const finished = async (n: number) =>
      (await get(`/dashboard?days=${n}`, fresh.adminToken)).counters.supportFinished;
    expect(await finished(1)).toBe(1);
    expect(await finished(7)).toBe(1);
    expect(await finished(15)).toBe(2);
    const empty = await get('/dashboard?date_from=2020-01-01&date_to=2020-01-31', fresh.adminToken);
    expect(empty.counters).toEqual({
      supportHappening: 0,
      supportPending: 0,
      supportFinished: 0,
      leads: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
  });

  it("without a period answers the spec's message", async () => {
    for (const url of ['/dashboard', `/dashboard?companyId=${home.companyId}`]) {
      const response = await t.as(home.adminToken).get(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'ERR_VALIDATION',
        fields: [expect.objectContaining({ message: 'Parametrize o filtro' })],
      });
    }
    expect((await t.as(home.adminToken).get('/dashboard?days=0')).statusCode).toBe(400);
    expect((await t.as(home.adminToken).get('/dashboard?date_from=10/03/2025')).statusCode).toBe(
      400,
    );
  });

  it('is for admins: a user is refused every dashboard call', async () => {
    for (const url of [
      `/dashboard?${PERIOD}`,
      `/dashboard/ticketsUsers?${charts()}`,
      `/dashboard/ticketsDay?${charts()}`,
    ]) {
      const response = await t.as(ana.token).get(url);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});

describe('GET /dashboard/ticketsUsers', () => {
  it('counts the tickets each user closed in the period, every user listed', async () => {
    expect(await get(`/dashboard/ticketsUsers?${charts()}`)).toEqual({
      data: [
        { name: 'Ana', quantidade: 2 },
        { name: 'Bruno', quantidade: 1 },
        { name: 'Company Admin', quantidade: 0 },
      ],
      count: 3,
    });
  });
});

describe('GET /dashboard/ticketsDay', () => {
  it('counts the tickets created on each day of the period', async () => {
    expect(await get(`/dashboard/ticketsDay?${charts()}`)).toEqual(perDay);
  });

  it('counts by hour of the day when the period is one day', async () => {
    expect(await get('/dashboard/ticketsDay?initialDate=2025-03-10&finalDate=2025-03-10')).toEqual(
      hoursOf10(),
    );
  });

  it('requires both days', async () => {
    for (const query of ['', 'initialDate=2025-03-10', 'finalDate=2025-03-10']) {
      expect((await t.as(home.adminToken).get(`/dashboard/ticketsDay?${query}`)).statusCode).toBe(
        400,
      );
    }
  });
});

describe('the days of closed tickets', () => {
  it('follow a ticket closed, reopened, closed by another user and deleted', async () => {
    const figures = async () => {
      const body = await get(`/dashboard?${PERIOD}`);
      const per = (name: string) =>
        body.attendants.find((a: { name: string }) => a.name === name).tickets;
      return [body.counters.supportFinished, per('Ana'), per('Bruno')];
    };
    const before = await figures();
    const [ticket] = await t.database.db
      .insert(tickets)
      .values({
        companyId: home.companyId,
        contactId: (await make.contact(home.companyId)).id,
        whatsappId: home.connection.id,
        status: 'closed',
        userId: ana.user.id,
        createdAt: at('2025-03-11T13:00:00Z'),
        acceptedAt: at('2025-03-11T13:05:00Z'),
        finishedAt: at('2025-03-11T13:35:00Z'),
      })
      .returning();
    const plus = (add: number[]) => before.map((value, i) => value + add[i]!);
    expect(await figures()).toEqual(plus([1, 1, 0]));
    const byId = eq(tickets.id, ticket!.id);
    await t.database.db.update(tickets).set({ status: 'open', finishedAt: null }).where(byId);
    expect(await figures()).toEqual(before);
    await t.database.db
      .update(tickets)
      .set({ status: 'closed', userId: bruno.user.id, finishedAt: at('2025-03-11T14:00:00Z') })
      .where(byId);
    expect(await figures()).toEqual(plus([1, 0, 1]));
    await t.database.db.update(tickets).set({ userId: ana.user.id }).where(byId);
    expect(await figures()).toEqual(plus([1, 1, 0]));
    await t.database.db.delete(tickets).where(byId);
    expect(await figures()).toEqual(before);
    expect(await get(`/dashboard?${PERIOD}`)).toEqual(expectedDashboard);
  });

  it('go with their company', async () => {
    const gone = await inboxCompany(t);
    await make.ticket(gone.companyId, {
      whatsappId: gone.connection.id,
      status: 'closed',
      finishedAt: at('2025-03-11T14:00:00Z'),
    });
    const ofGone = eq(ticketDayStats.companyId, gone.companyId);
    expect(await t.database.db.$count(ticketDayStats, ofGone)).toBe(1);
    await t.database.db.delete(companies).where(eq(companies.id, gone.companyId));
    expect(await t.database.db.$count(ticketDayStats, ofGone)).toBe(0);
  });
});

describe("the server's own time zone", () => {
  it("changes no answer: the days are always the company's", async () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['UTC', 'Asia/Tokyo']) {
        process.env.TZ = zone;
        expect(new Date(2025, 2, 10).getTimezoneOffset()).toBe(zone === 'UTC' ? 0 : -540);
        expect(await get(`/dashboard?${PERIOD}`)).toEqual(expectedDashboard);
        expect(await get(`/dashboard/ticketsDay?${charts()}`)).toEqual(perDay);
        expect(
          await get('/dashboard/ticketsDay?initialDate=2025-03-10&finalDate=2025-03-10'),
        ).toEqual(hoursOf10());
        expect((await get(`/dashboard/ticketsUsers?${charts()}`)).count).toBe(3);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("the company's time zone setting decides", async () => {
    const put = await t
      .as(home.adminToken)
      .put('/settings/timezone', { key: 'timezone', value: 'UTC' });
    expect(put.statusCode, put.body).toBe(200);
    try {
      // In UTC the one of 09/03 finished on the 10th (talked 55, waited 5) and t3 on the 12th.
      const body = await get(`/dashboard?${PERIOD}`);
      expect(body.counters).toMatchObject({
        supportFinished: 3,
        avgSupportTime: 31.33,
        avgWaitTime: 11.67,
      });
    } finally {
      await t.as(home.adminToken).put('/settings/timezone', { value: 'America/Sao_Paulo' });
    }
  });
});

/** The original client's report charts and reports screen, on companies of their own. */
describe("the original client's reports", () => {
  let home: Awaited<ReturnType<typeof inboxCompany>>;
  let other: Awaited<ReturnType<typeof inboxCompany>>;
  let ana: Awaited<ReturnType<typeof agent>>;
  let bruno: Awaited<ReturnType<typeof agent>>;
  let vendas: Awaited<ReturnType<TestServer['make']['queue']>>;
  let suporte: Awaited<ReturnType<TestServer['make']['queue']>>;
  const ids: Record<string, number> = {};
  let carla: { id: number };

  /**
   * Company "home" keeps its default clock, America/Sao_Paulo (UTC-3): the period 2025-03-10 to
   * 2025-03-11 runs from 2025-03-10T03:00Z to 2025-03-12T03:00Z. The other company works in the
   * same hours, on the same kind of rows, and is never counted.
   */
  beforeAll(async () => {
    home = await inboxCompany(t);
    other = await inboxCompany(t);
    ana = await agent(t, home.companyId, { name: 'Ana' });
    bruno = await agent(t, home.companyId, { name: 'Bruno' });
    vendas = await t.make.queue(home.companyId, { name: 'Vendas', color: '#00aa00' });
    suporte = await t.make.queue(home.companyId, { name: 'Suporte', color: '#0000aa' });
    await t.make.queue(home.companyId, { name: 'Financeiro', color: '#aa0000' });
    carla = await make.contact(home.companyId, { name: 'Carla' });
    const ticket = (name: string, fields: Parameters<typeof make.ticket>[1]) =>
      make.ticket(home.companyId, { whatsappId: home.connection.id, ...fields }).then((row) => {
        ids[name] = row.id;
        return row;
      });
    // 10/03 09:00 local, Vendas, Ana closed it on the 10th at 09:40 local.
    await ticket('t1', {
      status: 'closed',
      userId: ana.user.id,
      queueId: vendas.id,
      contactId: carla.id,
      lastMessage: 'Obrigada!',
      createdAt: at('2025-03-10T12:00:00Z'),
      acceptedAt: at('2025-03-10T12:10:00Z'),
      finishedAt: at('2025-03-10T12:40:00Z'),
    });
    // 10/03 23:30 local (the 11th in UTC), Vendas, Bruno closed it.
    await ticket('t2', {
      status: 'closed',
      userId: bruno.user.id,
      queueId: vendas.id,
      createdAt: at('2025-03-11T02:30:00Z'),
      acceptedAt: at('2025-03-11T02:50:00Z'),
      finishedAt: at('2025-03-11T02:59:00Z'),
    });
    // 11/03 09:15 local, Suporte, open with Ana.
    await ticket('t3', {
      status: 'open',
      userId: ana.user.id,
      queueId: suporte.id,
      createdAt: at('2025-03-11T12:15:00Z'),
    });
    // 11/03 22:00 local: a group, waiting, no queue.
    await ticket('t4', { status: 'pending', isGroup: true, createdAt: at('2025-03-12T01:00:00Z') });
    // 09/03 23:00 local (the 10th in UTC): before the period.
    await ticket('before', {
      status: 'closed',
      userId: ana.user.id,
      queueId: vendas.id,
      createdAt: at('2025-03-10T02:00:00Z'),
      finishedAt: at('2025-03-10T02:30:00Z'),
    });

    const rate = (ticketId: number, userId: number, rate: number, when: string) =>
      new TenantDb(t.database.db, home.companyId)
        .insert(userRatings, { ticketId, userId, rate, createdAt: at(when) })
        .then(() => undefined);
    await rate(ids.t1!, ana.user.id, 3, '2025-03-10T13:00:00Z');
    await rate(ids.t2!, bruno.user.id, 2, '2025-03-11T03:30:00Z');
    // 09/03 local: outside the period.
    await rate(ids.before!, ana.user.id, 1, '2025-03-10T02:45:00Z');

    const stranger = await t.make.user(other.companyId, { name: 'Ana' });
    const theirs = await t.make.queue(other.companyId, { name: 'Vendas' });
    const theirTicket = await make.ticket(other.companyId, {
      whatsappId: other.connection.id,
      status: 'closed',
      userId: stranger.id,
      queueId: theirs.id,
      createdAt: at('2025-03-10T12:00:00Z'),
      finishedAt: at('2025-03-10T13:00:00Z'),
    });
    await new TenantDb(t.database.db, other.companyId).insert(userRatings, {
      ticketId: theirTicket.id,
      userId: stranger.id,
      rate: 1,
      createdAt: at('2025-03-10T13:00:00Z'),
    });
  }, 60_000);

  const get = (url: string) => asAdmin(url, home.adminToken);

  /** As the original's charts send it: the month's days and a companyId (another's), ignored. */
  const chart = () => `initialDate=2025-03-10&finalDate=2025-03-11&companyId=${other.companyId}`;

  describe('GET /reports/appointmentsAtendent', () => {
    it("answers each user's closed tickets and each queue's new ones, fewest first", async () => {
      expect(await get(`/reports/appointmentsAtendent?${chart()}`)).toEqual({
        appointmentsByAttendents: [
          { user_name: 'Company Admin', total_tickets: 0 },
          { user_name: 'Ana', total_tickets: 1 },
          { user_name: 'Bruno', total_tickets: 1 },
        ],
        ticketsByQueues: [
          { name: 'Financeiro', total_tickets: 0 },
          { name: 'Suporte', total_tickets: 1 },
          { name: 'Vendas', total_tickets: 2 },
        ],
      });
    });
  });

  describe('GET /reports/rushHour', () => {
    it('counts the tickets created in each hour of the day, on the company clock', async () => {
      const hours = await get(`/reports/rushHour?${chart()}`);
      expect(hours).toHaveLength(24);
      const counted = hours.filter((hour: { message_count: number }) => hour.message_count > 0);
      expect(counted).toEqual([
        { message_hour: 9, message_count: 2 },
        { message_hour: 22, message_count: 1 },
        { message_hour: 23, message_count: 1 },
      ]);
    });
  });

  describe('GET /reports/departamentRatings', () => {
    it("averages each queue's ratings given in the period", async () => {
      expect(await get(`/reports/departamentRatings?${chart()}`)).toEqual([
        { name: 'Vendas', total_rate: 2.5 },
      ]);
    });
  });

  describe('GET /ticket/reports', () => {
    /** The reports screen's query: its lists as JSON text, the contact '' when none. */
    const report = (filters: Record<string, string> = {}) =>
      get(
        `/ticket/reports?${new URLSearchParams(reportsScreenQuery('2025-03-10', '2025-03-11', filters))}`,
      );
    const idsOf = (body: { tickets: { id: number }[] }) => body.tickets.map((row) => row.id);

    it("lists the period's tickets newest first, as the screen's table reads them", async () => {
      const body = await report();
      expect(body.totalTickets).toEqual({ total: 4 });
      expect(idsOf(body)).toEqual([ids.t4, ids.t3, ids.t2, ids.t1]);
      expect(body.tickets.at(-1)).toEqual({
        id: ids.t1,
        uuid: expect.any(String),
        whatsappName: home.connection.name,
        contactName: 'Carla',
        userName: 'Ana',
        queueName: 'Vendas',
        queueColor: '#00aa00',
        lastMessage: 'Obrigada!',
        status: 'FECHADO',
        createdAt: '10/03/2025 09:00',
        closedAt: '10/03/2025 09:40',
      });
      expect(body.tickets[0]).toMatchObject({
        status: 'PENDENTE',
        queueName: null,
        queueColor: null,
        userName: null,
        closedAt: null,
        createdAt: '11/03/2025 22:00',
      });
    });

    it('filters by each of the screen filters', async () => {
      const only = async (filters: Record<string, string>) => idsOf(await report(filters));
      expect(await only({ contactId: String(carla.id) })).toEqual([ids.t1]);
      expect(await only({ ticketId: String(ids.t2) })).toEqual([ids.t2]);
      expect(await only({ users: JSON.stringify([ana.user.id]) })).toEqual([ids.t3, ids.t1]);
      expect(await only({ queueIds: JSON.stringify([suporte.id]) })).toEqual([ids.t3]);
      expect(await only({ status: '["closed"]' })).toEqual([ids.t2, ids.t1]);
      expect(await only({ status: '["group"]' })).toEqual([ids.t4]);
      expect(await only({ status: '["open","group"]' })).toEqual([ids.t4, ids.t3]);
      expect(await only({ whatsappId: JSON.stringify([home.connection.id]) })).toHaveLength(4);
      expect(await only({ dateFrom: '2025-03-09', dateTo: '2025-03-09' })).toEqual([ids.before]);
    });

    it('pages, and reads the export’s huge page as the most one page answers', async () => {
      const second = await report({ page: '2', pageSize: '3' });
      expect(second.totalTickets).toEqual({ total: 4 });
      expect(idsOf(second)).toEqual([ids.t1]);
      const all = await report({ page: '1', pageSize: '9999999' });
      expect(idsOf(all)).toHaveLength(4);
    });

    it("never lists another company's tickets, whatever ids it is asked for", async () => {
      const theirs = await report({
        users: '[]',
        ticketId: '',
        whatsappId: JSON.stringify([other.connection.id]),
        companyId: String(other.companyId),
      });
      expect(theirs).toEqual({ tickets: [], totalTickets: { total: 0 } });
      expect(idsOf(await report({ companyId: String(other.companyId) }))).toHaveLength(4);
    });

    it('refuses values that mean nothing', async () => {
      for (const query of ['status=["lost"]', 'users=abc', 'dateFrom=10/03/2025', 'page=0']) {
        expect((await t.as(home.adminToken).get(`/ticket/reports?${query}`)).statusCode).toBe(400);
      }
    });
  });

  describe('the reports are for admins', () => {
    it('refuses a user every report', async () => {
      for (const url of [
        `/reports/appointmentsAtendent?${chart()}`,
        `/reports/rushHour?${chart()}`,
        `/reports/departamentRatings?${chart()}`,
        '/ticket/reports?page=1&pageSize=10',
      ]) {
        const response = await t.as(ana.token).get(url);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    });
  });
});
