import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, closeSockets, inboxFactories, socketFor } from '../../../test/inbox';
import { ticketTags } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

/** A company whose plan has the kanban, with its admin signed in and two lanes. */
async function board() {
  const plan = await t.make.plan({ useKanban: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const doing = await make.tag(company.id, { name: 'Em andamento', color: '#ff9800', kanban: 1 });
  const done = await make.tag(company.id, { name: 'Concluído', color: '#4caf50', kanban: 1 });
  const plain = await make.tag(company.id, { name: 'VIP', kanban: 0 });
  return { companyId: company.id, admin, adminToken, doing, done, plain };
}

let home: Awaited<ReturnType<typeof board>>;
let other: Awaited<ReturnType<typeof board>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await board();
  other = await board();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const tagsOf = async (ticketId: number) =>
  (
    await t.database.db
      .select({ tagId: ticketTags.tagId })
      .from(ticketTags)
      .where(eq(ticketTags.ticketId, ticketId))
  )
    .map((row) => row.tagId)
    .sort();

describe('GET /tags/kanban', () => {
  it("answers the company's kanban tags by name as `lista`", async () => {
    const res = await t.as(home.adminToken).get('/tags/kanban');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lista.map((tag: { name: string }) => tag.name)).toEqual([
      'Concluído',
      'Em andamento',
    ]);
    expect(res.json().lista[0]).toMatchObject({ id: home.done.id, color: '#4caf50', kanban: 1 });
  });
});

describe('GET /ticket/kanban', () => {
  it('answers the first page of every lane: tickets with no kanban tag and each tag lane', async () => {
    const company = await board();
    const loose = await make.ticket(company.companyId, { status: 'open', lastMessage: 'Oi' });
    const vip = await make.ticket(company.companyId, { status: 'pending' });
    await make.tagTicket(company.companyId, vip.id, company.plain.id);
    const doing = await make.ticket(company.companyId, { status: 'open' });
    await make.tagTicket(company.companyId, doing.id, company.doing.id);
    const closed = await make.ticket(company.companyId, { status: 'closed' });
    const res = await t.as(company.adminToken).get('/ticket/kanban?queueIds=%5B%5D&teste=true');
    expect(res.statusCode, res.body).toBe(200);
    const ids = res
      .json()
      .tickets.map((ticket: { id: number }) => ticket.id)
      .sort();
    expect(ids).toEqual([loose.id, vip.id, doing.id].sort());
    expect(ids).not.toContain(closed.id);
    expect(res.json().hasMore).toBe(false);
    const card = res.json().tickets.find((ticket: { id: number }) => ticket.id === loose.id);
    expect(card).toMatchObject({
      uuid: loose.uuid,
      lastMessage: 'Oi',
      contact: { name: expect.any(String), number: expect.any(String) },
      tags: [],
    });

    const open = await t.as(company.adminToken).get('/ticket/kanban?tagId=0');
    expect(
      open
        .json()
        .tickets.map((ticket: { id: number }) => ticket.id)
        .sort(),
    ).toEqual([loose.id, vip.id].sort());
    const lane = await t.as(company.adminToken).get(`/ticket/kanban?tagId=${company.doing.id}`);
    expect(lane.json().tickets.map((ticket: { id: number }) => ticket.id)).toEqual([doing.id]);
  });

  it('keeps each ticket in its lane as tags are linked, switched off as lanes and deleted', async () => {
    const company = await board();
    const laneOf = async (tagId: number) =>
      (await t.as(company.adminToken).get(`/ticket/kanban?tagId=${tagId}`))
        .json()
        .tickets.map((ticket: { id: number }) => ticket.id)
        .sort();
    const both = await make.ticket(company.companyId, { status: 'open' });
    const done = await make.ticket(company.companyId, { status: 'pending' });
    await make.tagTicket(company.companyId, both.id, company.done.id);
    await make.tagTicket(company.companyId, both.id, company.doing.id);
    await make.tagTicket(company.companyId, done.id, company.done.id);
    // Two kanban tags: the card sits in the lane of the older one, once on the board.
    expect(await laneOf(company.doing.id)).toEqual([both.id]);
    expect(await laneOf(company.done.id)).toEqual([done.id]);
    expect(await laneOf(0)).toEqual([]);
    const whole = await t.as(company.adminToken).get('/ticket/kanban');
    expect(
      whole
        .json()
        .tickets.map((ticket: { id: number }) => ticket.id)
        .sort(),
    ).toEqual([both.id, done.id].sort());
    // The card carries its tags by name, and its last activity as ISO text.
    const card = whole.json().tickets.find((ticket: { id: number }) => ticket.id === both.id);
    expect(card.tags).toEqual([
      { id: company.done.id, name: 'Concluído', color: '#4caf50' },
      { id: company.doing.id, name: 'Em andamento', color: '#ff9800' },
    ]);
    expect(new Date(card.updatedAt).toISOString()).toBe(card.updatedAt);

    const off = await t
      .as(company.adminToken)
      .put(`/tags/${company.done.id}`, { name: company.done.name, kanban: 0 });
    expect(off.statusCode, off.body).toBe(200);
    expect(await laneOf(0)).toEqual([done.id]);
    expect(await laneOf(company.doing.id)).toEqual([both.id]);

    expect((await t.as(company.adminToken).delete(`/tags/${company.doing.id}`)).statusCode).toBe(
      204,
    );
    expect(await laneOf(0)).toEqual([both.id, done.id].sort());
    const on = await t
      .as(company.adminToken)
      .put(`/tags/${company.done.id}`, { name: company.done.name, kanban: 1 });
    expect(on.statusCode, on.body).toBe(200);
    expect(await laneOf(company.done.id)).toEqual([both.id, done.id].sort());
    expect(await laneOf(0)).toEqual([]);
  });

  it('pages a lane newest first, 40 cards a page', async () => {
    const company = await board();
    const ids: number[] = [];
    for (let i = 0; i < 45; i++) {
      const ticket = await make.ticket(company.companyId, {
        status: 'open',
        updatedAt: new Date(Date.UTC(2030, 0, 1, 0, i)),
      });
      ids.push(ticket.id);
    }
    const first = await t.as(company.adminToken).get('/ticket/kanban?tagId=0&pageNumber=1');
    expect(first.json().tickets).toHaveLength(40);
    expect(first.json().hasMore).toBe(true);
    expect(first.json().tickets[0].id).toBe(ids[44]);
    const second = await t.as(company.adminToken).get('/ticket/kanban?tagId=0&pageNumber=2');
    expect(second.json().tickets.map((ticket: { id: number }) => ticket.id)).toEqual(
      ids.slice(0, 5).reverse(),
    );
    expect(second.json().hasMore).toBe(false);
  });

  it("loads a user's own queues only, and narrows to the queueIds sent", async () => {
    const company = await board();
    const mine = await t.make.queue(company.companyId);
    const theirs = await t.make.queue(company.companyId);
    const ana = await agent(t, company.companyId, { queueIds: [mine.id] });
    const inMine = await make.ticket(company.companyId, { status: 'open', queueId: mine.id });
    const inTheirs = await make.ticket(company.companyId, { status: 'open', queueId: theirs.id });
    const seen = async (token: string, query = '') =>
      (await t.as(token).get(`/ticket/kanban${query}`))
        .json()
        .tickets.map((ticket: { id: number }) => ticket.id);
    expect(await seen(ana.token, `?queueIds=${JSON.stringify([mine.id, theirs.id])}`)).toEqual([
      inMine.id,
    ]);
    expect(await seen(company.adminToken, `?queueIds=${JSON.stringify([mine.id])}`)).toEqual([
      inMine.id,
    ]);
    expect((await seen(company.adminToken)).sort()).toEqual([inMine.id, inTheirs.id].sort());
  });

  it('refuses a bad queue list', async () => {
    const res = await t.as(home.adminToken).get('/ticket/kanban?queueIds=%5Bx');
    expect(res.statusCode).toBe(400);
  });
});

describe('a move: DELETE /ticket-tags/{ticketId}, then PUT /ticket-tags/{ticketId}/{tagId}', () => {
  it("takes the kanban tags off, keeps the others, and puts the new lane's tag on", async () => {
    const ticket = await make.ticket(home.companyId, { status: 'open' });
    await make.tagTicket(home.companyId, ticket.id, home.doing.id);
    await make.tagTicket(home.companyId, ticket.id, home.plain.id);
    const removed = await t.as(home.adminToken).delete(`/ticket-tags/${ticket.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'Ticket tags removed successfully.' });
    expect(await tagsOf(ticket.id)).toEqual([home.plain.id]);
    const added = await t.as(home.adminToken).put(`/ticket-tags/${ticket.id}/${home.done.id}`);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({ ticketId: ticket.id, tagId: home.done.id });
    expect(await tagsOf(ticket.id)).toEqual([home.plain.id, home.done.id].sort());
    // Twice is once.
    expect(
      (await t.as(home.adminToken).put(`/ticket-tags/${ticket.id}/${home.done.id}`)).statusCode,
    ).toBe(201);
    expect(await tagsOf(ticket.id)).toEqual([home.plain.id, home.done.id].sort());
  });

  it('puts only kanban tags on, of the same company', async () => {
    const ticket = await make.ticket(home.companyId, { status: 'open' });
    const plain = await t.as(home.adminToken).put(`/ticket-tags/${ticket.id}/${home.plain.id}`);
    expect(plain.statusCode).toBe(400);
    const foreign = await t.as(home.adminToken).put(`/ticket-tags/${ticket.id}/${other.done.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(await tagsOf(ticket.id)).toEqual([]);
  });

  it("answers 404 for another company's ticket and 403 for a ticket the user cannot read", async () => {
    const theirs = await make.ticket(other.companyId, { status: 'open' });
    await make.tagTicket(other.companyId, theirs.id, other.doing.id);
    const del = await t.as(home.adminToken).delete(`/ticket-tags/${theirs.id}`);
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    const put = await t.as(home.adminToken).put(`/ticket-tags/${theirs.id}/${home.doing.id}`);
    expect(put.statusCode).toBe(404);
    expect(await tagsOf(theirs.id)).toEqual([other.doing.id]);

    const queue = await t.make.queue(home.companyId);
    const hidden = await make.ticket(home.companyId, { status: 'open', queueId: queue.id });
    const ana = await agent(t, home.companyId);
    expect((await t.as(ana.token).delete(`/ticket-tags/${hidden.id}`)).statusCode).toBe(403);
    expect(
      (await t.as(ana.token).put(`/ticket-tags/${hidden.id}/${home.done.id}`)).statusCode,
    ).toBe(403);
  });
});

describe('the plan and the session', () => {
  it("answers 403 on every kanban route when the company's plan has no kanban, 401 without a session", async () => {
    const plan = await t.make.plan({ useKanban: false });
    const { company, admin } = await t.make.company({ planId: plan.id });
    const token = (await t.login(admin.email)).token;
    const ticket = await make.ticket(company.id, { status: 'open' });
    const tag = await make.tag(company.id, { kanban: 1 });
    for (const res of [
      await t.as(token).get('/tags/kanban'),
      await t.as(token).get('/ticket/kanban'),
      await t.as(token).delete(`/ticket-tags/${ticket.id}`),
      await t.as(token).put(`/ticket-tags/${ticket.id}/${tag.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    for (const url of ['/tags/kanban', '/ticket/kanban']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('the tag kanban toggle', () => {
  it('is for admins: a user may not create a lane nor switch one', async () => {
    const ana = await agent(t, home.companyId);
    const lane = await t.as(ana.token).post('/tags', { name: 'Nova raia', kanban: 1 });
    expect(lane.statusCode).toBe(403);
    const plain = await t.as(ana.token).post('/tags', { name: 'Sem raia', kanban: 0 });
    expect(plain.statusCode, plain.body).toBe(201);
    const toggled = await t.as(ana.token).put(`/tags/${plain.json().id}`, { kanban: true });
    expect(toggled.statusCode).toBe(403);
    // The form sends the flag as it was: an edit of the name alone goes through.
    const renamed = await t
      .as(ana.token)
      .put(`/tags/${home.doing.id}`, { name: 'Fazendo', kanban: 1, color: '#ff9800' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const off = await t.as(ana.token).put(`/tags/${home.doing.id}`, { kanban: 0 });
    expect(off.statusCode).toBe(403);
    const admin = await t.as(home.adminToken).put(`/tags/${plain.json().id}`, { kanban: 1 });
    expect(admin.json().kanban).toBe(1);
    await t.as(home.adminToken).put(`/tags/${home.doing.id}`, { name: 'Em andamento' });
    await t.as(home.adminToken).delete(`/tags/${plain.json().id}`);
  });
});

describe('realtime', () => {
  it("moves the card on every board that may see the ticket, and on none of another company's", async () => {
    const queue = await t.make.queue(home.companyId);
    const ana = await agent(t, home.companyId, { queueIds: [queue.id] });
    const bruno = await agent(t, home.companyId);
    const ticket = await make.ticket(home.companyId, { status: 'open', queueId: queue.id });
    const anaSocket = await socketFor(t, ana.token);
    const brunoSocket = await socketFor(t, bruno.token);
    const theirs = await socketFor(t, other.adminToken);
    const heard: { action: string; ticket: { id: number; tags: { id: number }[] } }[] = [];
    const overheard: unknown[] = [];
    anaSocket.on(`company-${home.companyId}-ticket`, (payload) => heard.push(payload));
    brunoSocket.onAny((event: string, payload) => {
      if (event.endsWith('-ticket')) overheard.push(payload);
    });
    theirs.onAny((event: string, payload) => {
      if (event.endsWith('-ticket')) overheard.push(payload);
    });

    await t.as(home.adminToken).put(`/ticket-tags/${ticket.id}/${home.doing.id}`);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({
      action: 'update',
      ticket: { id: ticket.id, tags: [{ id: home.doing.id, name: 'Em andamento' }] },
    });
    await t.as(home.adminToken).delete(`/ticket-tags/${ticket.id}`);
    await expect.poll(() => heard.length).toBe(2);
    expect(heard[1]!.ticket.tags).toEqual([]);
    expect(overheard).toEqual([]);
    expect(
      await t.database.db.$count(
        ticketTags,
        and(eq(ticketTags.ticketId, ticket.id), eq(ticketTags.tagId, home.doing.id)),
      ),
    ).toBe(0);
  });
});
