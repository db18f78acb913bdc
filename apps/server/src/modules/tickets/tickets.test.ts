import type { Ticket } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  agent,
  closeSockets,
  emittedOf,
  inboxCompany,
  inboxFactories,
  joinChatBox,
  socketFor,
} from '../../../test/inbox';
import { messages, tickets } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let queueA: { id: number; name: string };
let queueB: { id: number; name: string };
let agentA: Awaited<ReturnType<typeof agent>>;
let agentA2: Awaited<ReturnType<typeof agent>>;
let agentB: Awaited<ReturnType<typeof agent>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  queueA = await t.make.queue(home.companyId, { name: 'Vendas' });
  queueB = await t.make.queue(home.companyId, { name: 'Suporte' });
  agentA = await agent(t, home.companyId, { name: 'Ana', queueIds: [queueA.id] });
  agentA2 = await agent(t, home.companyId, { name: 'Alice', queueIds: [queueA.id] });
  agentB = await agent(t, home.companyId, { name: 'Bruno', queueIds: [queueB.id] });
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const ticketRow = async (id: number) =>
  (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0];

const live = (companyId: number, overrides: Parameters<typeof make.ticket>[1] = {}) =>
  make.ticket(companyId, { whatsappId: home.connection.id, ...overrides });

const ids = (body: { tickets: Ticket[] }) => body.tickets.map((ticket) => ticket.id);

describe('GET /tickets', () => {
  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/tickets' })).statusCode).toBe(401);
  });

  it("shows a user only its queues' tickets and its own; an admin every one with showAll", async () => {
    const inA = await live(home.companyId, { queueId: queueA.id });
    const inB = await live(home.companyId, { queueId: queueB.id });
    const elsewhere = await make.ticket(other.companyId, {
      whatsappId: other.connection.id,
      status: 'pending',
    });
    const forA = (await t.as(agentA.token).get('/tickets?status=pending')).json();
    expect(ids(forA)).toContain(inA.id);
    expect(ids(forA)).not.toContain(inB.id);
    // showAll is for admins only; a user asking for it sees the same.
    const forAAll = (await t.as(agentA.token).get('/tickets?status=pending&showAll=true')).json();
    expect(ids(forAAll)).not.toContain(inB.id);
    const forAdmin = (await t.as(home.adminToken).get('/tickets?showAll=true')).json();
    expect(ids(forAdmin)).toEqual(expect.arrayContaining([inA.id, inB.id]));
    expect(ids(forAdmin)).not.toContain(elsewhere.id);
    expect(forAdmin.tickets[0]).toMatchObject({
      contact: { name: expect.any(String), number: expect.any(String) },
      whatsapp: { id: home.connection.id },
      tags: [],
    });
  });

  it("without showAll lists the caller's tickets and the waiting line, not colleagues' open ones", async () => {
    const mine = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const colleagues = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA2.user.id,
    });
    const list = ids((await t.as(agentA.token).get('/tickets?status=open')).json());
    expect(list).toContain(mine.id);
    expect(list).not.toContain(colleagues.id);
    const adminAll = ids(
      (await t.as(home.adminToken).get('/tickets?status=open&showAll=true')).json(),
    );
    expect(adminAll).toEqual(expect.arrayContaining([mine.id, colleagues.id]));
    const adminOwn = ids(
      (await t.as(home.adminToken).get('/tickets?status=open&showAll=false')).json(),
    );
    expect(adminOwn).not.toContain(colleagues.id);
  });

  it('shows a user its own ticket even in a queue that is not one of its queues', async () => {
    const own = await live(home.companyId, {
      queueId: queueB.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const notOwn = await live(home.companyId, {
      queueId: queueB.id,
      status: 'open',
      userId: agentB.user.id,
    });
    const list = ids((await t.as(agentA.token).get('/tickets?status=open')).json());
    expect(list).toContain(own.id);
    expect(list).not.toContain(notOwn.id);
    const filtered = ids(
      (await t.as(agentA.token).get(`/tickets?status=open&queueIds=${queueB.id}`)).json(),
    );
    expect(filtered).toContain(own.id);
    expect((await t.as(agentA.token).get(`/tickets/${own.id}`)).statusCode).toBe(200);
    expect((await t.as(agentA.token).get(`/messages/${own.id}`)).statusCode).toBe(200);
    expect((await t.as(agentA.token).get(`/tickets/${notOwn.id}`)).statusCode).toBe(403);
    const socket = await socketFor(t, agentA.token);
    expect(await joinChatBox(socket, own.id)).toEqual({ ok: true });
    expect(await joinChatBox(socket, notOwn.id)).toEqual({ ok: false });
  });

  it('shows allTicket users the pending tickets of no queue, in the list and live', async () => {
    const everything = await agent(t, home.companyId, {
      name: 'Carla',
      queueIds: [queueA.id],
      allTicket: 'enabled',
    });
    const waiting = await live(home.companyId, { status: 'pending', unreadMessages: 2 });
    // Once someone has it, it is that agent's: allTicket shows no more than the waiting line.
    const taken = await live(home.companyId, { status: 'open', userId: agentA2.user.id });

    const forAll = ids((await t.as(everything.token).get('/tickets?status=pending')).json());
    expect(forAll).toContain(waiting.id);
    const forAllOpen = ids((await t.as(everything.token).get('/tickets?status=open')).json());
    expect(forAllOpen).not.toContain(taken.id);
    const forA = ids((await t.as(agentA.token).get('/tickets?status=pending')).json());
    expect(forA).not.toContain(waiting.id);
    expect((await t.as(everything.token).get(`/tickets/${waiting.id}`)).statusCode).toBe(200);
    expect((await t.as(agentA.token).get(`/tickets/${waiting.id}`)).statusCode).toBe(403);

    const allSocket = await socketFor(t, everything.token);
    const userSocket = await socketFor(t, agentA.token);
    expect(await joinChatBox(allSocket, waiting.id)).toEqual({ ok: true });
    expect(await joinChatBox(userSocket, waiting.id)).toEqual({ ok: false });
    expect(await joinChatBox(allSocket, taken.id)).toEqual({ ok: false });
    const heardAll: unknown[] = [];
    const heardUser: unknown[] = [];
    allSocket.on(`company-${home.companyId}-ticket`, (payload) => heardAll.push(payload));
    userSocket.on(`company-${home.companyId}-ticket`, (payload) => heardUser.push(payload));
    // An admin opening the ticket reads it: the lists that show it are told.
    await t.as(home.adminToken).get(`/messages/${waiting.id}`);
    await expect
      .poll(() => heardAll)
      .toContainEqual(expect.objectContaining({ action: 'updateUnread', ticketId: waiting.id }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardUser).toEqual([]);
  });

  it('pages 40 at a time, newest activity first, with the total count', async () => {
    const fresh = await inboxCompany(t);
    const created: number[] = [];
    for (let i = 0; i < 45; i++) {
      const ticket = await make.ticket(fresh.companyId, {
        whatsappId: fresh.connection.id,
        updatedAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
      });
      created.push(ticket.id);
    }
    const first = (await t.as(fresh.adminToken).get('/tickets?showAll=true&pageNumber=1')).json();
    expect(first.tickets).toHaveLength(40);
    expect(first).toMatchObject({ count: 45, hasMore: true });
    expect(ids(first).slice(0, 3)).toEqual(created.slice(-3).reverse());
    const second = (await t.as(fresh.adminToken).get('/tickets?showAll=true&pageNumber=2')).json();
    expect(second).toMatchObject({ count: 45, hasMore: false });
    expect(ids(second)).toEqual(created.slice(0, 5).reverse());
  });

  it('filters by status, queues (JSON or comma list), users, tags, unread and days', async () => {
    const fresh = await inboxCompany(t);
    const q1 = await t.make.queue(fresh.companyId);
    const q2 = await t.make.queue(fresh.companyId);
    const u = await t.make.user(fresh.companyId);
    const [urgent, vip] = [await make.tag(fresh.companyId), await make.tag(fresh.companyId)];
    const base = { whatsappId: fresh.connection.id };
    const a = await make.ticket(fresh.companyId, { ...base, queueId: q1.id, status: 'pending' });
    const b = await make.ticket(fresh.companyId, {
      ...base,
      queueId: q2.id,
      status: 'open',
      userId: u.id,
      unreadMessages: 3,
      createdAt: new Date('2025-03-10T15:00:00Z'),
      updatedAt: new Date('2025-03-11T02:00:00Z'),
    });
    const c = await make.ticket(fresh.companyId, { ...base, status: 'closed' });
    await make.tagTicket(fresh.companyId, a.id, urgent.id);
    await make.tagTicket(fresh.companyId, b.id, urgent.id);
    await make.tagTicket(fresh.companyId, b.id, vip.id);
    const get = async (query: string) =>
      ids((await t.as(fresh.adminToken).get(`/tickets?showAll=true&${query}`)).json()).sort();

    expect(await get('status=closed')).toEqual([c.id]);
    expect(await get(`queueIds=${encodeURIComponent(JSON.stringify([q1.id]))}`)).toEqual(
      [a.id, c.id].sort(),
    );
    expect(await get(`queueIds=${q1.id},${q2.id}&status=open`)).toEqual([b.id]);
    expect(await get(`users=[${u.id}]`)).toEqual([b.id]);
    expect(await get(`tags=[${urgent.id}]`)).toEqual([a.id, b.id].sort());
    expect(await get(`tags=${urgent.id},${vip.id}`)).toEqual([b.id]);
    expect(await get('withUnreadMessages=true')).toEqual([b.id]);
    expect(await get('date=2025-03-10')).toEqual([b.id]);
    // 02:00 UTC on the 11th is still the 10th in São Paulo.
    expect(await get('updatedAt=2025-03-10')).toEqual([b.id]);
    expect(await get('updatedAt=2025-03-11')).toEqual([]);
  });

  it('searches words of message bodies, contact names and numbers', async () => {
    const fresh = await inboxCompany(t);
    const base = { whatsappId: fresh.connection.id };
    const byBody = await make.ticket(fresh.companyId, base);
    await make.message(fresh.companyId, byBody.id, { body: 'Meu pedido de geladeira atrasou' });
    const byName = await make.ticket(fresh.companyId, {
      ...base,
      contactId: (await make.contact(fresh.companyId, { name: 'Joana Prado' })).id,
    });
    const byNumber = await make.ticket(fresh.companyId, {
      ...base,
      contactId: (await make.contact(fresh.companyId, { number: '5521987654321' })).id,
    });
    const search = async (term: string) =>
      ids(
        (
          await t.as(fresh.adminToken).get(`/tickets?searchParam=${encodeURIComponent(term)}`)
        ).json(),
      );
    expect(await search('geladeira')).toEqual([byBody.id]);
    expect(await search('GELADEIRA atrasou')).toEqual([byBody.id]);
    expect(await search('joana')).toEqual([byName.id]);
    expect(await search('98765')).toEqual([byNumber.id]);
    expect(await search('(21) 98765-4321')).toEqual([byNumber.id]);
    expect(await search('100%')).toEqual([]);
    // Another company's words are not found.
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    await make.message(other.companyId, foreign.id, { body: 'geladeira estrangeira' });
    expect(await search('estrangeira')).toEqual([]);
  });

  it('search respects visibility', async () => {
    const hidden = await live(home.companyId, { queueId: queueB.id });
    await make.message(home.companyId, hidden.id, { body: 'palavrasecreta' });
    const res = await t.as(agentA.token).get('/tickets?searchParam=palavrasecreta');
    expect(ids(res.json())).toEqual([]);
    const admin = await t.as(home.adminToken).get('/tickets?searchParam=palavrasecreta');
    expect(ids(admin.json())).toEqual([hidden.id]);
  });

  it('refuses malformed filters', async () => {
    for (const query of [
      'status=waiting',
      'queueIds=[abc]',
      'queueIds={"a":1}',
      'tags=1,x',
      'date=2025-02-30',
      'showAll=yes',
      'pageNumber=0',
      'withUnreadMessages=1',
      'companyId=abc',
    ]) {
      const res = await t.as(home.adminToken).get(`/tickets?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    // A parameter the list does not know is ignored, as the spec's clients expect.
    const plain = await t.as(home.adminToken).get('/tickets?status=open');
    const extra = await t.as(home.adminToken).get('/tickets?status=open&unknown=1');
    expect(extra.statusCode).toBe(200);
    expect(extra.json()).toEqual(plain.json());
  });
});

describe('GET /tickets/:id and /tickets/u/:uuid', () => {
  it('answers the ticket by id and by uuid', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    const byId = await t.as(agentA.token).get(`/tickets/${ticket.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({
      id: ticket.id,
      uuid: ticket.uuid,
      queue: { name: 'Vendas' },
    });
    const byUuid = await t.as(agentA.token).get(`/tickets/u/${ticket.uuid}`);
    expect(byUuid.json().id).toBe(ticket.id);
  });

  it("is ERR_NO_PERMISSION outside the caller's queues, readable by an admin", async () => {
    const ticket = await live(home.companyId, { queueId: queueB.id });
    for (const url of [`/tickets/${ticket.id}`, `/tickets/u/${ticket.uuid}`]) {
      const res = await t.as(agentA.token).get(url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
      expect((await t.as(home.adminToken).get(url)).statusCode).toBe(200);
    }
  });

  it("is 404 for another company's ticket, unknown ids and uuids", async () => {
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    for (const url of [
      `/tickets/${foreign.id}`,
      `/tickets/u/${foreign.uuid}`,
      '/tickets/999999',
      '/tickets/u/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await t.as(home.adminToken).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('ERR_NO_TICKET_FOUND');
    }
    expect((await t.as(home.adminToken).get('/tickets/u/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('POST /tickets', () => {
  it('opens a ticket on the default connection, assigned to the caller', async () => {
    const contact = await make.contact(home.companyId);
    const res = await t
      .as(agentA.token)
      .post('/tickets', { contactId: contact.id, queueId: queueA.id, status: 'open' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'open',
      userId: agentA.user.id,
      user: { name: 'Ana' },
      queueId: queueA.id,
      whatsappId: home.connection.id,
      contactId: contact.id,
    });
    expect(emittedOf(t, `company-${home.companyId}-ticket`)).toContainEqual({
      action: 'update',
      ticket: expect.objectContaining({ id: res.json().id }),
    });
  });

  it('needs a queue unless the caller is an admin', async () => {
    const contact = await make.contact(home.companyId);
    const res = await t.as(agentA.token).post('/tickets', { contactId: contact.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'body.queueId', message: 'Selecione uma fila' }]);
    const admin = await t.as(home.adminToken).post('/tickets', { contactId: contact.id });
    expect(admin.statusCode).toBe(201);
    expect(admin.json()).toMatchObject({ queueId: null, userId: home.admin.id });
  });

  it('answers ERR_OTHER_OPEN_TICKET with the live ticket, its user and queue', async () => {
    const contact = await make.contact(home.companyId);
    const first = await t.as(agentA.token).post('/tickets', {
      contactId: contact.id,
      queueId: queueA.id,
    });
    const second = await t.as(agentB.token).post('/tickets', {
      contactId: contact.id,
      queueId: queueB.id,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { id: first.json().id, user: { name: 'Ana' }, queue: { name: 'Vendas' } },
    });
  });

  it('lets exactly one of many concurrent creations for one contact win', async () => {
    const contact = await make.contact(home.companyId);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.as(home.adminToken).post('/tickets', { contactId: contact.id, queueId: queueA.id }),
      ),
    );
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(11);
    const winner = answers.find((res) => res.statusCode === 201)!.json();
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      expect(res.json().ticket.id).toBe(winner.id);
    }
    const rows = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, contact.id));
    expect(rows).toHaveLength(1);
  });

  it('checks the contact, connection, queue and user belong to the company', async () => {
    const contact = await make.contact(home.companyId);
    const foreignContact = await make.contact(other.companyId);
    const foreignQueue = await t.make.queue(other.companyId);
    const foreignUser = await t.make.user(other.companyId);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ contactId: foreignContact.id }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId: contact.id, whatsappId: other.connection.id }, 404, 'ERR_NO_WAPP_FOUND'],
      [{ contactId: contact.id, queueId: foreignQueue.id }, 400, 'ERR_VALIDATION'],
      [{ contactId: contact.id, userId: foreignUser.id }, 404, 'ERR_NO_USER_FOUND'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.as(home.adminToken).post('/tickets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    const count = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(tickets)
      .where(eq(tickets.contactId, contact.id));
    expect(count[0]!.n).toBe(0);
  });

  it('is ERR_NO_DEF_WAPP_FOUND when the company has no default connection', async () => {
    const { company, admin } = await t.make.company();
    const token = (await t.login(admin.email)).token;
    const contact = await make.contact(company.id);
    const res = await t.as(token).post('/tickets', { contactId: contact.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_DEF_WAPP_FOUND');
  });

  it('does not let a user open a ticket for another agent', async () => {
    const contact = await make.contact(home.companyId);
    const res = await t.as(agentA.token).post('/tickets', {
      contactId: contact.id,
      queueId: queueA.id,
      userId: agentA2.user.id,
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses wrong types and bad ids', async () => {
    for (const body of [
      { contactId: 1, queueId: 'x' },
      { contactId: 'x' },
      {},
      { contactId: 1, status: 'closed' },
    ]) {
      const res = await t.as(home.adminToken).post('/tickets', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('PUT /tickets/:id', () => {
  const put = (token: string, id: number, body: Record<string, unknown>) =>
    t.as(token).put(`/tickets/${id}`, body);

  it('accepts: pending to open, assigned to the caller; the waiting line is told', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    t.emitted.length = 0;
    const res = await put(agentA.token, ticket.id, { status: 'open', userId: agentA.user.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'open', userId: agentA.user.id });
    expect(emittedOf(t, `company-${home.companyId}-ticket`)).toContainEqual({
      action: 'update',
      ticket: expect.objectContaining({ id: ticket.id, status: 'open' }),
    });
  });

  it('lets one of two agents accepting at once win; the other learns who has it', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    const [one, two] = await Promise.all([
      put(agentA.token, ticket.id, { status: 'open' }),
      put(agentA2.token, ticket.id, { status: 'open' }),
    ]);
    const codes = [one.statusCode, two.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const lost = one.statusCode === 409 ? one : two;
    const won = one.statusCode === 200 ? one : two;
    expect(lost.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { userId: won.json().userId },
    });
  });

  it('answers a late accept with who has the ticket', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    expect((await put(agentA.token, ticket.id, { status: 'open' })).statusCode).toBe(200);
    const late = await put(agentA2.token, ticket.id, { status: 'open' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { userId: agentA.user.id },
    });
  });

  it('greets the contact on accept when sendGreetingAccepted is enabled, not for groups', async () => {
    const fresh = await inboxCompany(t);
    const q = await t.make.queue(fresh.companyId);
    const contact = await make.contact(fresh.companyId, { name: 'Maria Souza' });
    const person = await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      queueId: q.id,
      contactId: contact.id,
    });
    const group = await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      queueId: q.id,
      isGroup: true,
    });
    const quiet = await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      queueId: q.id,
    });
    const bodies = async (id: number) =>
      (await t.database.db.select().from(messages).where(eq(messages.ticketId, id))).map(
        (m) => m.body,
      );

    // Disabled (the default): nothing is sent.
    await put(fresh.adminToken, quiet.id, { status: 'open' });
    expect(await bodies(quiet.id)).toEqual([]);

    await make.setting(fresh.companyId, 'sendGreetingAccepted', 'enabled');
    await put(fresh.adminToken, person.id, { status: 'open' });
    const [greeting] = await bodies(person.id);
    expect(greeting).toMatch(
      /^(Bom dia|Boa tarde|Boa noite) \*Maria Souza\*, meu nome é \*Company Admin\* e agora vou prosseguir com seu atendimento!$/,
    );
    await put(fresh.adminToken, group.id, { status: 'open' });
    expect(await bodies(group.id)).toEqual([]);
  });

  it('returns: open to pending with no agent; only its agent or an admin', async () => {
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const colleague = await put(agentA2.token, ticket.id, { status: 'pending', userId: null });
    expect(colleague.statusCode).toBe(403);
    const res = await put(agentA.token, ticket.id, { status: 'pending', userId: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', userId: null, user: null });
  });

  it('resolves: closes and clears the integration, prompt and integration id', async () => {
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
      useIntegration: true,
      promptId: 7,
      integrationId: 9,
    });
    const res = await put(agentA.token, ticket.id, {
      status: 'closed',
      userId: agentA.user.id,
      queueId: queueA.id,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'closed',
      useIntegration: false,
      promptId: null,
      integrationId: null,
      userId: agentA.user.id,
    });
    // A pending ticket closes too, as the closer's.
    const waiting = await live(home.companyId, { queueId: queueA.id });
    const closed = await put(agentA2.token, waiting.id, { status: 'closed' });
    expect(closed.json()).toMatchObject({ status: 'closed', userId: agentA2.user.id });
  });

  it('reopens: closed to open for the caller, unless the contact has another live ticket', async () => {
    const contact = await make.contact(home.companyId);
    const closed = await live(home.companyId, {
      queueId: queueA.id,
      status: 'closed',
      contactId: contact.id,
    });
    const res = await put(agentA.token, closed.id, { status: 'open', userId: agentA.user.id });
    expect(res.json()).toMatchObject({ status: 'open', userId: agentA.user.id });

    const older = await live(home.companyId, {
      queueId: queueA.id,
      status: 'closed',
      contactId: contact.id,
    });
    const conflict = await put(agentA.token, older.id, { status: 'open' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { id: closed.id },
    });
    expect((await ticketRow(older.id))!.status).toBe('closed');
  });

  it('transfers to a queue (waiting, no agent) or to an agent, moving the rooms', async () => {
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const socketA = await socketFor(t, agentA2.token);
    const socketB = await socketFor(t, agentB.token);
    const heardA: unknown[] = [];
    const heardB: unknown[] = [];
    socketA.on(`company-${home.companyId}-ticket`, (payload) => heardA.push(payload));
    socketB.on(`company-${home.companyId}-ticket`, (payload) => heardB.push(payload));

    const res = await put(agentA.token, ticket.id, { queueId: queueB.id, userId: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', queueId: queueB.id, userId: null });
    // Queue B hears the ticket; queue A is told to drop it.
    await expect
      .poll(() => heardB)
      .toContainEqual({
        action: 'update',
        ticket: expect.objectContaining({ id: ticket.id, queueId: queueB.id }),
      });
    await expect.poll(() => heardA).toContainEqual({ action: 'delete', ticketId: ticket.id });
    expect(heardA).not.toContainEqual(expect.objectContaining({ action: 'update' }));

    const toAgent = await put(agentB.token, ticket.id, {
      queueId: queueB.id,
      userId: agentB.user.id,
      status: 'open',
    });
    expect(toAgent.json()).toMatchObject({ status: 'open', userId: agentB.user.id });
  });

  it('transfers to an agent only within a queue the agent serves, for admins too', async () => {
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    // Bruno serves queue B only: not a holder for queue A, whoever asks.
    for (const token of [agentA.token, home.adminToken]) {
      const refused = await put(token, ticket.id, {
        transfer: true,
        queueId: queueA.id,
        userId: agentB.user.id,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'ERR_USER_NOT_IN_QUEUE' });
    }
    // Nor is an agent of queue A a holder for queue B.
    const toAgentOfA = await put(home.adminToken, ticket.id, {
      queueId: queueB.id,
      userId: agentA2.user.id,
    });
    expect(toAgentOfA.json()).toEqual({ error: 'ERR_USER_NOT_IN_QUEUE' });
    expect(await ticketRow(ticket.id)).toMatchObject({
      queueId: queueA.id,
      userId: agentA.user.id,
      status: 'open',
    });

    const toColleague = await put(agentA.token, ticket.id, {
      transfer: true,
      queueId: queueA.id,
      userId: agentA2.user.id,
    });
    expect(toColleague.statusCode).toBe(200);
    expect(toColleague.json()).toMatchObject({ queueId: queueA.id, userId: agentA2.user.id });

    // Taking a ticket yourself is your own choice: the admin serves no queue B, and the original
    // client's transfer to oneself sends one's own id.
    const toSelf = await put(home.adminToken, ticket.id, {
      queueId: queueB.id,
      userId: home.admin.id,
      status: 'open',
    });
    expect(toSelf.statusCode).toBe(200);
    expect(toSelf.json()).toMatchObject({ queueId: queueB.id, userId: home.admin.id });
  });

  it('needs a queue to transfer', async () => {
    const ticket = await live(home.companyId, { status: 'open', userId: home.admin.id });
    const res = await put(home.adminToken, ticket.id, { transfer: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ path: 'body.queueId', message: 'Selecione uma fila' }]);
    const foreignQueue = await t.make.queue(other.companyId);
    const foreign = await put(home.adminToken, ticket.id, { queueId: foreignQueue.id });
    expect(foreign.statusCode).toBe(400);
    expect((await ticketRow(ticket.id))!.queueId).toBeNull();
  });

  it('tells the contact about a transfer when sendMsgTransfTicket is enabled', async () => {
    const fresh = await inboxCompany(t);
    const q1 = await t.make.queue(fresh.companyId, { name: 'Financeiro' });
    const q2 = await t.make.queue(fresh.companyId, { name: 'Cobrança' });
    const base = { whatsappId: fresh.connection.id, queueId: q1.id, status: 'open' as const };
    const first = await make.ticket(fresh.companyId, base);
    const second = await make.ticket(fresh.companyId, base);
    const bodiesOf = async (id: number) =>
      (await t.database.db.select().from(messages).where(eq(messages.ticketId, id))).map(
        (m) => m.body,
      );

    await put(fresh.adminToken, first.id, { queueId: q2.id });
    expect(await bodiesOf(first.id)).toEqual([]);

    await make.setting(fresh.companyId, 'sendMsgTransfTicket', 'enabled');
    await put(fresh.adminToken, second.id, { queueId: q2.id });
    expect(await bodiesOf(second.id)).toEqual([
      '*Mensagem Automática*:\nVocê foi transferido para o departamento *Cobrança*\naguarde, já vamos te atender!',
    ]);
  });

  it("transfers to another connection, which must be the company's and free for the contact", async () => {
    const second = await make.connection(home.companyId, { name: 'Segundo', isDefault: false });
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const moved = await put(agentA.token, ticket.id, {
      queueId: queueA.id,
      userId: agentA.user.id,
      whatsappId: second.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      whatsappId: second.id,
      whatsapp: { id: second.id, name: 'Segundo' },
      status: 'open',
      userId: agentA.user.id,
    });
    expect((await ticketRow(ticket.id))!.whatsappId).toBe(second.id);
    // Replies now leave through the new connection.
    await t.as(agentA.token).post(`/messages/${ticket.id}`, {
      body: 'pelo outro número',
      signMessage: false,
    });
    const [reply] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    expect(reply).toMatchObject({ body: 'pelo outro número', connectionId: second.id });

    const foreign = await put(agentA.token, ticket.id, {
      queueId: queueA.id,
      whatsappId: other.connection.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect((await ticketRow(ticket.id))!.whatsappId).toBe(second.id);

    // The contact already has a live ticket on the first connection: no second one there.
    const busy = await live(home.companyId, {
      queueId: queueA.id,
      status: 'pending',
      contactId: ticket.contactId,
    });
    const conflict = await put(agentA.token, ticket.id, {
      queueId: queueA.id,
      whatsappId: home.connection.id,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      ticket: { id: busy.id },
    });
    expect((await ticketRow(ticket.id))!.whatsappId).toBe(second.id);
  });

  it('tells the contact the agent it was transferred to when sendMsgTransfTicket is enabled', async () => {
    const fresh = await inboxCompany(t);
    const queue = await t.make.queue(fresh.companyId, { name: 'Financeiro' });
    const colleague = await agent(t, fresh.companyId, { name: 'Dora Lima', queueIds: [queue.id] });
    await make.setting(fresh.companyId, 'sendMsgTransfTicket', 'enabled');
    const ticket = await make.ticket(fresh.companyId, {
      whatsappId: fresh.connection.id,
      queueId: queue.id,
      status: 'open',
      userId: fresh.admin.id,
    });
    const res = await put(fresh.adminToken, ticket.id, {
      queueId: queue.id,
      userId: colleague.user.id,
    });
    expect(res.json()).toMatchObject({ userId: colleague.user.id, status: 'open' });
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    expect(sent.map((m) => [m.body, m.fromMe])).toEqual([
      [
        '*Mensagem Automática*:\nVocê foi transferido para o atendente *Dora Lima*\naguarde, já vamos te atender!',
        true,
      ],
    ]);
  });

  it("is 403 outside the caller's tickets and 404 for another company's, changing nothing", async () => {
    const hidden = await live(home.companyId, { queueId: queueB.id });
    const res = await put(agentA.token, hidden.id, { status: 'open' });
    expect(res.statusCode).toBe(403);
    expect((await ticketRow(hidden.id))!.status).toBe('pending');
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const cross = await put(home.adminToken, foreign.id, { status: 'closed' });
    expect(cross.statusCode).toBe(404);
    expect((await ticketRow(foreign.id))!.status).toBe('pending');
  });

  it('refuses wrong types and statuses', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    for (const body of [
      { status: 'done' },
      { status: 'open', transfer: 'yes' },
      { userId: 'me' },
    ]) {
      expect((await put(home.adminToken, ticket.id, body)).statusCode).toBe(400);
    }
  });
});

describe("the dashboard's times", () => {
  const put = (token: string, id: number, body: Record<string, unknown>) =>
    t.as(token).put(`/tickets/${id}`, body);
  const times = async (id: number) => {
    const row = await ticketRow(id);
    return { acceptedAt: row!.acceptedAt, finishedAt: row!.finishedAt };
  };

  it('keeps when a person first took the ticket and when it was last closed; a reopen clears the close', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    expect(await times(ticket.id)).toEqual({ acceptedAt: null, finishedAt: null });

    expect((await put(agentA.token, ticket.id, { status: 'open' })).statusCode).toBe(200);
    const first = await times(ticket.id);
    expect(first.acceptedAt).toBeInstanceOf(Date);
    expect(first.finishedAt).toBeNull();

    // Handed back to the line and taken by another agent: the first taking stays.
    expect((await put(agentA.token, ticket.id, { status: 'pending' })).statusCode).toBe(200);
    expect((await put(agentA2.token, ticket.id, { status: 'open' })).statusCode).toBe(200);
    expect((await times(ticket.id)).acceptedAt).toEqual(first.acceptedAt);

    expect((await put(agentA2.token, ticket.id, { status: 'closed' })).statusCode).toBe(200);
    const closed = await times(ticket.id);
    expect(closed.finishedAt).toBeInstanceOf(Date);
    expect(closed.acceptedAt).toEqual(first.acceptedAt);

    expect((await put(agentA2.token, ticket.id, { status: 'open' })).statusCode).toBe(200);
    expect(await times(ticket.id)).toEqual({ acceptedAt: first.acceptedAt, finishedAt: null });
  });

  it('a ticket created open for an agent, or transferred to one open, is taken then', async () => {
    const contact = await make.contact(home.companyId);
    const created = await t
      .as(agentA.token)
      .post('/tickets', { contactId: contact.id, queueId: queueA.id, status: 'open' });
    expect((await times(created.json().id)).acceptedAt).toBeInstanceOf(Date);

    const waiting = await t
      .as(home.adminToken)
      .post('/tickets', { contactId: (await make.contact(home.companyId)).id, status: 'pending' });
    expect((await times(waiting.json().id)).acceptedAt).toBeNull();
    const transferred = await put(home.adminToken, waiting.json().id, {
      queueId: queueA.id,
      userId: agentA.user.id,
      status: 'open',
    });
    expect(transferred.statusCode).toBe(200);
    expect((await times(waiting.json().id)).acceptedAt).toBeInstanceOf(Date);
  });

  it('a conversation closed for inactivity is finished, never taken', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    await t.app.services.ticketLifecycle.closeForInactivity(home.companyId, ticket.id, '');
    const closed = await times(ticket.id);
    expect((await ticketRow(ticket.id))!.status).toBe('closed');
    expect(closed.finishedAt).toBeInstanceOf(Date);
    expect(closed.acceptedAt).toBeNull();
  });
});

describe('DELETE /tickets/:id', () => {
  it('is for admins; the ticket and its messages go, and the lists are told', async () => {
    const ticket = await live(home.companyId, { queueId: queueA.id });
    await make.message(home.companyId, ticket.id);
    const denied = await t.as(agentA.token).delete(`/tickets/${ticket.id}`);
    expect(denied.statusCode).toBe(403);
    expect(await ticketRow(ticket.id)).toBeDefined();

    const res = await t.as(home.adminToken).delete(`/tickets/${ticket.id}`);
    expect(res.statusCode).toBe(204);
    expect(await ticketRow(ticket.id)).toBeUndefined();
    const left = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    expect(left).toEqual([]);
    expect(emittedOf(t, `company-${home.companyId}-ticket`)).toContainEqual({
      action: 'delete',
      ticketId: ticket.id,
    });
  });

  it("is 404 for another company's ticket, which stays", async () => {
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    expect((await t.as(home.adminToken).delete(`/tickets/${foreign.id}`)).statusCode).toBe(404);
    expect(await ticketRow(foreign.id)).toBeDefined();
  });
});

describe('realtime room of a ticket', () => {
  it('a user of queue A cannot join a ticket of queue B; an admin can', async () => {
    const ticketB = await live(home.companyId, { queueId: queueB.id });
    const ticketA = await live(home.companyId, { queueId: queueA.id });
    const user = await socketFor(t, agentA.token);
    expect(await joinChatBox(user, ticketB.id)).toEqual({ ok: false });
    expect(await joinChatBox(user, ticketA.id)).toEqual({ ok: true });
    const admin = await socketFor(t, home.adminToken);
    expect(await joinChatBox(admin, ticketB.id)).toEqual({ ok: true });
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    expect(await joinChatBox(admin, foreign.id)).toEqual({ ok: false });
  });

  it("a transfer out of the caller's queues takes its socket out of the conversation", async () => {
    const ticket = await live(home.companyId, {
      queueId: queueA.id,
      status: 'open',
      userId: agentA.user.id,
    });
    const colleague = await socketFor(t, agentA2.token);
    const admin = await socketFor(t, home.adminToken);
    expect(await joinChatBox(colleague, ticket.id)).toEqual({ ok: true });
    expect(await joinChatBox(admin, ticket.id)).toEqual({ ok: true });
    const inRoom = async () =>
      (await t.realtime.io.in(`company-${home.companyId}-ticket-${ticket.id}`).fetchSockets()).map(
        (socket) => socket.id,
      );
    await t.as(home.adminToken).put(`/tickets/${ticket.id}`, { queueId: queueB.id });
    await expect.poll(inRoom).not.toContain(colleague.id);
    expect(await inRoom()).toContain(admin.id);
  });

  it('queue updates reach the queue, not the other queues', async () => {
    const ticketB = await live(home.companyId, { queueId: queueB.id });
    const userA = await socketFor(t, agentA.token);
    const userB = await socketFor(t, agentB.token);
    const heardA: unknown[] = [];
    const heardB: unknown[] = [];
    userA.on(`company-${home.companyId}-ticket`, (p) => heardA.push(p));
    userB.on(`company-${home.companyId}-ticket`, (p) => heardB.push(p));
    await t.as(agentB.token).put(`/tickets/${ticketB.id}`, { status: 'open' });
    await expect.poll(() => heardB.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardA).toEqual([]);
  });
});
