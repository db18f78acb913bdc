import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, inboxCompany, inboxFactories } from '../../../test/inbox';
import { ticketNotes } from '../../db/schema';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let queueA: { id: number };
let queueB: { id: number };
let agentA: Awaited<ReturnType<typeof agent>>;
let agentA2: Awaited<ReturnType<typeof agent>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  queueA = await t.make.queue(home.companyId);
  queueB = await t.make.queue(home.companyId);
  agentA = await agent(t, home.companyId, { name: 'Ana', queueIds: [queueA.id] });
  agentA2 = await agent(t, home.companyId, { name: 'Alice', queueIds: [queueA.id] });
});
afterAll(() => t.stop());

const ticketIn = (queueId: number) =>
  make.ticket(home.companyId, { whatsappId: home.connection.id, queueId });

const noteRow = async (id: number) =>
  (await t.database.db.select().from(ticketNotes).where(eq(ticketNotes.id, id)))[0];

describe('POST /ticket-notes', () => {
  it('adds a note by the caller to a ticket it may read', async () => {
    const ticket = await ticketIn(queueA.id);
    const res = await t.as(agentA.token).post('/ticket-notes', {
      note: 'Cliente VIP',
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      note: 'Cliente VIP',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: agentA.user.id,
      user: { id: agentA.user.id, name: 'Ana' },
    });
  });

  it('needs at least 2 characters, the ticket and its own contact', async () => {
    const ticket = await ticketIn(queueA.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ note: 'x', ticketId: ticket.id, contactId: ticket.contactId }, 'body.note', 'Too Short!'],
      [{ note: '   ', ticketId: ticket.id, contactId: ticket.contactId }, 'body.note', 'Required'],
      [{ ticketId: ticket.id, contactId: ticket.contactId }, 'body.note', 'Required'],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.as(agentA.token).post('/ticket-notes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toContainEqual({ path, message });
    }
    const wrongContact = await make.contact(home.companyId);
    const res = await t
      .as(agentA.token)
      .post('/ticket-notes', { note: 'ok ok', ticketId: ticket.id, contactId: wrongContact.id });
    expect(res.statusCode).toBe(400);
    const wrongType = await t
      .as(agentA.token)
      .post('/ticket-notes', { note: 'ok ok', ticketId: 'abc', contactId: ticket.contactId });
    expect(wrongType.statusCode).toBe(400);
    // A userId in the body is ignored: the note is the caller's.
    const extra = await t.as(agentA.token).post('/ticket-notes', {
      note: 'ok ok',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: 1,
    });
    expect(extra.statusCode).toBe(201);
    expect(extra.json().userId).toBe(agentA.user.id);
  });

  it("is 403 on a ticket of another queue and 404 on another company's", async () => {
    const hidden = await ticketIn(queueB.id);
    const denied = await t.as(agentA.token).post('/ticket-notes', {
      note: 'espiando',
      ticketId: hidden.id,
      contactId: hidden.contactId,
    });
    expect(denied.statusCode).toBe(403);
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const cross = await t.as(home.adminToken).post('/ticket-notes', {
      note: 'cruzado',
      ticketId: foreign.id,
      contactId: foreign.contactId,
    });
    expect(cross.statusCode).toBe(404);
    const left = await t.database.db
      .select()
      .from(ticketNotes)
      .where(eq(ticketNotes.ticketId, foreign.id));
    expect(left).toEqual([]);
    const anonymous = await t.app.inject({ method: 'POST', url: '/ticket-notes', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /ticket-notes/list', () => {
  it("lists a ticket's notes, newest first, or a contact's across readable tickets", async () => {
    const contact = await make.contact(home.companyId);
    const first = await make.ticket(home.companyId, {
      contactId: contact.id,
      queueId: queueA.id,
      status: 'closed',
    });
    const hidden = await make.ticket(home.companyId, {
      contactId: contact.id,
      queueId: queueB.id,
      status: 'closed',
    });
    for (const [ticketId, note] of [
      [first.id, 'primeira'],
      [first.id, 'segunda'],
      [hidden.id, 'oculta'],
    ] as const) {
      await t.as(home.adminToken).post('/ticket-notes', { note, ticketId, contactId: contact.id });
    }
    const byTicket = await t
      .as(agentA.token)
      .get(`/ticket-notes/list?ticketId=${first.id}&contactId=${contact.id}`);
    expect(byTicket.json().map((n: { note: string }) => n.note)).toEqual(['segunda', 'primeira']);
    const byContact = await t.as(agentA.token).get(`/ticket-notes/list?contactId=${contact.id}`);
    expect(byContact.json().map((n: { note: string }) => n.note)).toEqual(['segunda', 'primeira']);
    const admin = await t.as(home.adminToken).get(`/ticket-notes/list?contactId=${contact.id}`);
    expect(admin.json()).toHaveLength(3);
    expect(
      (await t.as(agentA.token).get(`/ticket-notes/list?ticketId=${hidden.id}`)).statusCode,
    ).toBe(403);
    expect((await t.as(agentA.token).get('/ticket-notes/list')).statusCode).toBe(400);
  });

  it("shows nothing of another company's tickets", async () => {
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    await t
      .as(other.adminToken)
      .post('/ticket-notes', { note: 'deles', ticketId: foreign.id, contactId: foreign.contactId });
    expect(
      (await t.as(home.adminToken).get(`/ticket-notes/list?ticketId=${foreign.id}`)).statusCode,
    ).toBe(404);
    const byContact = await t
      .as(home.adminToken)
      .get(`/ticket-notes/list?contactId=${foreign.contactId}`);
    expect(byContact.json()).toEqual([]);
  });
});

describe('DELETE /ticket-notes/:id', () => {
  it('lets the author or an admin delete a note, not a colleague', async () => {
    const ticket = await ticketIn(queueA.id);
    const create = () =>
      t
        .as(agentA.token)
        .post('/ticket-notes', {
          note: 'minha nota',
          ticketId: ticket.id,
          contactId: ticket.contactId,
        })
        .then((res) => res.json().id as number);
    const mine = await create();
    expect((await t.as(agentA2.token).delete(`/ticket-notes/${mine}`)).statusCode).toBe(403);
    expect(await noteRow(mine)).toBeDefined();
    expect((await t.as(agentA.token).delete(`/ticket-notes/${mine}`)).statusCode).toBe(204);
    expect(await noteRow(mine)).toBeUndefined();
    const another = await create();
    expect((await t.as(home.adminToken).delete(`/ticket-notes/${another}`)).statusCode).toBe(204);
  });

  it("is 404 for another company's note, which stays", async () => {
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const created = await t
      .as(other.adminToken)
      .post('/ticket-notes', { note: 'deles', ticketId: foreign.id, contactId: foreign.contactId });
    const id = created.json().id;
    expect((await t.as(home.adminToken).delete(`/ticket-notes/${id}`)).statusCode).toBe(404);
    expect(await noteRow(id)).toBeDefined();
  });
});
