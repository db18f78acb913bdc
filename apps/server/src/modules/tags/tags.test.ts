import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, emittedOf, inboxCompany, inboxFactories } from '../../../test/inbox';
import { tags, ticketTags } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let queueA: { id: number };
let queueB: { id: number };
let agentA: Awaited<ReturnType<typeof agent>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  queueA = await t.make.queue(home.companyId);
  queueB = await t.make.queue(home.companyId);
  agentA = await agent(t, home.companyId, { queueIds: [queueA.id] });
});
afterAll(() => t.stop());

const tagRow = async (id: number) =>
  (await t.database.db.select().from(tags).where(eq(tags.id, id)))[0];

describe('POST, GET, PUT and DELETE /tags', () => {
  it('creates, reads, edits and deletes a tag', async () => {
    // The kanban switch is the admins' (spec 6); the rest of a tag is every user's.
    const created = await t
      .as(home.adminToken)
      .post('/tags', { name: 'Urgente', color: '#FF0000', kanban: 1 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Urgente', color: '#FF0000', kanban: 1 });
    const id = created.json().id;
    expect((await t.as(agentA.token).get(`/tags/${id}`)).json().name).toBe('Urgente');
    const edited = await t.as(agentA.token).put(`/tags/${id}`, { name: 'Muito urgente' });
    expect(edited.json()).toMatchObject({ name: 'Muito urgente', color: '#FF0000', kanban: 1 });
    const unboarded = await t.as(home.adminToken).put(`/tags/${id}`, { kanban: false });
    expect(unboarded.json()).toMatchObject({ name: 'Muito urgente', kanban: 0 });
    expect((await t.as(agentA.token).delete(`/tags/${id}`)).statusCode).toBe(204);
    expect(await tagRow(id)).toBeUndefined();
  });

  it("refuses short names ('Mensagem muito curta'), bad colors and duplicates", async () => {
    const short = await t.as(agentA.token).post('/tags', { name: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toContainEqual({
      path: 'body.name',
      message: 'Mensagem muito curta',
    });
    const color = await t.as(agentA.token).post('/tags', { name: 'Cor ruim', color: 'red;}' });
    expect(color.statusCode).toBe(400);
    const kanban = await t.as(agentA.token).post('/tags', { name: 'Kanban', kanban: 'yes' });
    expect(kanban.statusCode).toBe(400);
    // A companyId in the body is ignored: the tag is the caller's company's.
    const extra = await t.as(agentA.token).post('/tags', { name: 'Extra', companyId: 1 });
    expect(extra.statusCode).toBe(201);
    expect((await t.as(agentA.token).get(`/tags/${extra.json().id}`)).statusCode).toBe(200);
    await t.as(agentA.token).post('/tags', { name: 'Repetida' });
    const dup = await t.as(agentA.token).post('/tags', { name: 'Repetida' });
    expect(dup.statusCode).toBe(409);
  });

  it("is 404 for another company's tag, which stays", async () => {
    const theirs = await make.tag(other.companyId, { name: 'Deles' });
    expect((await t.as(home.adminToken).get(`/tags/${theirs.id}`)).statusCode).toBe(404);
    expect(
      (await t.as(home.adminToken).put(`/tags/${theirs.id}`, { name: 'Nossa' })).statusCode,
    ).toBe(404);
    expect((await t.as(home.adminToken).delete(`/tags/${theirs.id}`)).statusCode).toBe(404);
    expect((await tagRow(theirs.id))!.name).toBe('Deles');
    expect((await t.app.inject({ method: 'GET', url: '/tags' })).statusCode).toBe(401);
  });
});

describe('GET /tags and /tags/list', () => {
  it('pages tags by name with their ticket counts; the list has them all', async () => {
    const fresh = await inboxCompany(t);
    const vip = await make.tag(fresh.companyId, { name: 'VIP' });
    await make.tag(fresh.companyId, { name: 'Atrasado', kanban: 1 });
    for (let i = 0; i < 3; i++) {
      const ticket = await make.ticket(fresh.companyId, { whatsappId: fresh.connection.id });
      await make.tagTicket(fresh.companyId, ticket.id, vip.id);
    }
    const page = (await t.as(fresh.adminToken).get('/tags')).json();
    expect(page).toMatchObject({ count: 2, hasMore: false });
    expect(
      page.tags.map((tag: { name: string; ticketsCount: number }) => [tag.name, tag.ticketsCount]),
    ).toEqual([
      ['Atrasado', 0],
      ['VIP', 3],
    ]);
    const search = (await t.as(fresh.adminToken).get('/tags?searchParam=vi')).json();
    expect(search.tags.map((tag: { name: string }) => tag.name)).toEqual(['VIP']);
    const list = (await t.as(fresh.adminToken).get('/tags/list')).json();
    expect(list.map((tag: { name: string }) => tag.name)).toEqual(['Atrasado', 'VIP']);
    const kanban = (await t.as(fresh.adminToken).get('/tags/list?kanban=1')).json();
    expect(kanban.map((tag: { name: string }) => tag.name)).toEqual(['Atrasado']);
    const foreign = (await t.as(other.adminToken).get('/tags/list')).json();
    expect(foreign.map((tag: { id: number }) => tag.id)).not.toContain(vip.id);
  });
});

describe('POST /tags/sync', () => {
  it("replaces the ticket's tags and tells the lists", async () => {
    const ticket = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueA.id,
    });
    const [one, two, three] = [
      await make.tag(home.companyId),
      await make.tag(home.companyId),
      await make.tag(home.companyId),
    ];
    await make.tagTicket(home.companyId, ticket.id, one.id);
    const res = await t
      .as(agentA.token)
      .post('/tags/sync', { ticketId: ticket.id, tags: [{ id: two.id }, { id: three.id }] });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .tags.map((tag: { id: number }) => tag.id)
        .sort(),
    ).toEqual([two.id, three.id].sort());
    expect(emittedOf(t, `company-${home.companyId}-ticket`)).toContainEqual({
      action: 'update',
      ticket: expect.objectContaining({ id: ticket.id }),
    });
    const cleared = await t.as(agentA.token).post('/tags/sync', { ticketId: ticket.id, tags: [] });
    expect(cleared.json().tags).toEqual([]);
  });

  it("refuses another company's tags and tickets outside the caller's queues", async () => {
    const ticket = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueA.id,
    });
    const theirs = await make.tag(other.companyId);
    const foreignTag = await t
      .as(agentA.token)
      .post('/tags/sync', { ticketId: ticket.id, tags: [{ id: theirs.id }] });
    expect(foreignTag.statusCode).toBe(400);
    const hidden = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueB.id,
    });
    const mine = await make.tag(home.companyId);
    const denied = await t
      .as(agentA.token)
      .post('/tags/sync', { ticketId: hidden.id, tags: [{ id: mine.id }] });
    expect(denied.statusCode).toBe(403);
    const foreignTicket = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const cross = await t
      .as(home.adminToken)
      .post('/tags/sync', { ticketId: foreignTicket.id, tags: [{ id: mine.id }] });
    expect(cross.statusCode).toBe(404);
    const links = await t.database.db
      .select()
      .from(ticketTags)
      .where(eq(ticketTags.tagId, mine.id));
    expect(links).toEqual([]);
  });
});
