import {
  type Connection,
  type Message,
  SOCKET_PING_INTERVAL_MS,
  SOCKET_PING_TIMEOUT_MS,
  type Tag,
  type Ticket,
} from '@atendi/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../../test/harness';
import { closeSockets, socketFor } from '../../test/inbox';
import { contacts, tickets, users } from '../db/schema';
import { TenantDb } from '../db/tenant';
import { TokenService } from './auth/tokens';
import type { RealtimeGateway } from './realtime';

/**
 * Never run: tsc (npm run typecheck) compiles these emissions against the shared payload map,
 * which the web's subscriptions read too (apps/web/src/app/socket.contract.test.ts). Each
 * `@ts-expect-error` fails the build once the emission it marks compiles.
 */
export function emissionsTheMapRefuses(
  gateway: RealtimeGateway,
  records: { tag: Tag; ticket: Ticket; message: Message; connection: Connection },
) {
  const { tag, ticket, message, connection } = records;
  const everyone = { companyId: 1, may: 'session:use' } as const;
  // @ts-expect-error a deleted tag is named by its id, not sent whole
  gateway.emit(everyone, 'tag', { action: 'delete', tag });
  // @ts-expect-error an action the topic does not have
  gateway.emit(everyone, 'tag', { action: 'remove', tagId: tag.id });
  // @ts-expect-error a field of the wrong type
  gateway.emit(everyone, 'ticket', { action: 'delete', ticketId: String(ticket.id) });
  // @ts-expect-error updateUnread names the ticket's id beside it
  gateway.emit(everyone, 'ticket', { action: 'updateUnread', ticket });
  // @ts-expect-error a new message travels with its ticket's contact
  gateway.emit(everyone, 'appMessage', { action: 'create', message, ticket });
  // @ts-expect-error the connection's token is never emitted
  gateway.emit(everyone, 'whatsapp', { action: 'update', whatsapp: connection });
  // @ts-expect-error a topic nothing emits yet has no payload
  gateway.emit(everyone, 'payment', { action: 'update' });
  // what the server does send compiles
  gateway.emit(everyone, 'appMessage', {
    action: 'create',
    message,
    ticket,
    contact: ticket.contact,
  });
  const { token: _token, ...visible } = connection;
  gateway.emit(everyone, 'whatsapp', { action: 'update', whatsapp: visible });
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(closeSockets);
afterAll(() => t.stop());

/** Resolves with the first `event` payload that matches, or with undefined after `ms`. */
function next(
  socket: Socket,
  event: string,
  ms = 500,
  matches: (payload: unknown) => boolean = () => true,
): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      resolve(undefined);
    }, ms);
    const onEvent = (payload: unknown) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, onEvent);
      resolve(payload);
    };
    socket.on(event, onEvent);
  });
}

const about = (userId: number) => (payload: unknown) =>
  (payload as { userId?: number }).userId === userId;

const ack = (socket: Socket, message: string, arg: unknown) =>
  socket.timeout(2000).emitWithAck(message, arg) as Promise<{ ok: boolean }>;

async function ticketIn(
  companyId: number,
  queueId: number | null,
  status: 'open' | 'pending' = 'pending',
) {
  const db = new TenantDb(t.database.db, companyId);
  const [contact] = await db
    .insert(contacts, { name: 'Contact', number: `55${Math.floor(Math.random() * 1e11)}` })
    .returning();
  const [ticket] = await db
    .insert(tickets, { contactId: contact!.id, queueId, status })
    .returning();
  return ticket!;
}

describe('realtime channel', () => {
  it('uses the spec ping interval and timeout', () => {
    expect(t.realtime.io.engine.opts.pingInterval).toBe(SOCKET_PING_INTERVAL_MS);
    expect(t.realtime.io.engine.opts.pingTimeout).toBe(SOCKET_PING_TIMEOUT_MS);
    expect(SOCKET_PING_INTERVAL_MS).toBe(18_000);
  });

  it('accepts a valid token and refuses missing, forged, expired and revoked ones', async () => {
    const { admin, company } = await t.make.company();
    const session = await t.login(admin.email);
    await expect(socketFor(t, session.token)).resolves.toBeTruthy();

    const sid = JSON.parse(Buffer.from(session.token.split('.')[1]!, 'base64url').toString()).sid;
    const claims = { sub: String(admin.id), cid: company.id, sid };
    const expired = await new TokenService(TEST_JWT_SECRET, -60).sign(claims);
    const forged = await new TokenService('x'.repeat(40), 900).sign(claims);
    for (const token of ['', 'garbage', expired, forged]) {
      await expect(socketFor(t, token)).rejects.toThrow(/ERR_SESSION_EXPIRED/);
    }
    await t.login(admin.email); // ends the first session
    await expect(socketFor(t, session.token)).rejects.toThrow(/ERR_SESSION_EXPIRED/);
  });

  it('delivers company events only to that company', async () => {
    const a = await t.make.company();
    const b = await t.make.company();
    const sessionA = await t.login(a.admin.email);
    const socketA = await socketFor(t, sessionA.token);
    const socketB = await socketFor(t, (await t.login(b.admin.email)).token);
    const leakedToB: string[] = [];
    socketB.onAny((event) => leakedToB.push(event));

    const heardByA = next(socketA, `company-${a.company.id}-user`, 3000);
    const created = await t.as(sessionA.token).post('/users', {
      name: 'New Agent',
      email: `agent-${Date.now()}@example.com`,
      password: 'secret1',
    });
    expect(created.statusCode).toBe(201);
    expect(await heardByA).toMatchObject({ action: 'create', user: { name: 'New Agent' } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(leakedToB.filter((event) => event.includes(`company-${a.company.id}`))).toEqual([]);
  });

  it("tells the older session's socket that the account signed in elsewhere", async () => {
    const { company, admin } = await t.make.company();
    const first = await t.login(admin.email);
    const socket = await socketFor(t, first.token);
    const heard = next(socket, `company-${company.id}-auth`, 3000);
    const second = await t.login(admin.email);
    const sid = JSON.parse(Buffer.from(second.token.split('.')[1]!, 'base64url').toString()).sid;
    expect(await heard).toEqual({ action: 'update', user: { id: admin.id }, sessionId: sid });
  });

  it('closes the sockets of ended sessions: password changed, user deleted, signed in elsewhere', async () => {
    const { company, admin } = await t.make.company();
    const adminToken = (await t.login(admin.email)).token;
    const closed = (socket: Socket) =>
      new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    const agent = await t.make.user(company.id);
    const agentSocket = await socketFor(t, (await t.login(agent.email)).token);
    const agentClosed = closed(agentSocket);
    await t.as(adminToken).put(`/users/${agent.id}`, { password: 'a-new-password' });
    expect(await agentClosed).toBe('io server disconnect');

    const other = await t.make.user(company.id);
    const otherSocket = await socketFor(t, (await t.login(other.email)).token);
    const otherClosed = closed(otherSocket);
    expect((await t.as(adminToken).delete(`/users/${other.id}`)).statusCode).toBe(204);
    expect(await otherClosed).toBe('io server disconnect');

    // Signing in elsewhere: the old socket hears why, then is closed.
    const third = await t.make.user(company.id);
    const oldSocket = await socketFor(t, (await t.login(third.email)).token);
    const order: string[] = [];
    oldSocket.on(`company-${company.id}-auth`, () => order.push('auth'));
    const oldClosed = closed(oldSocket).then(() => order.push('disconnect'));
    await t.login(third.email);
    await oldClosed;
    expect(order).toEqual(['auth', 'disconnect']);
  });

  it('moves a socket into the rooms of queues its user gains', async () => {
    const { company, admin } = await t.make.company();
    const queue = await t.make.queue(company.id);
    const agent = await t.make.user(company.id);
    const agentSocket = await socketFor(t, (await t.login(agent.email)).token);
    const before = next(agentSocket, `company-${company.id}-ticket`, 300);
    t.realtime.emit({ companyId: company.id, queueId: queue.id }, 'ticket', {
      action: 'delete',
      ticketId: 1,
    });
    expect(await before).toBeUndefined();

    const adminToken = (await t.login(admin.email)).token;
    await t.as(adminToken).put(`/users/${agent.id}`, { queueIds: [queue.id] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = next(agentSocket, `company-${company.id}-ticket`, 2000);
    t.realtime.emit({ companyId: company.id, queueId: queue.id }, 'ticket', {
      action: 'delete',
      ticketId: 2,
    });
    expect(await after).toEqual({ action: 'delete', ticketId: 2 });
  });

  it('sends tag events to the company and a personal quick reply only to its owner', async () => {
    const { company, admin } = await t.make.company();
    const owner = await t.make.user(company.id);
    const colleague = await t.make.user(company.id);
    const ownerSession = await t.login(owner.email);
    const ownerSocket = await socketFor(t, ownerSession.token);
    const colleagueSocket = await socketFor(t, (await t.login(colleague.email)).token);
    const adminToken = (await t.login(admin.email)).token;

    const tagHeard = next(colleagueSocket, `company-${company.id}-tag`, 3000);
    const tag = await t.as(adminToken).post('/tags', { name: 'Urgente', color: '#FF0000' });
    expect(tag.statusCode).toBe(201);
    expect(await tagHeard).toMatchObject({ action: 'create', tag: { name: 'Urgente' } });

    const toOwner = next(ownerSocket, `company-${company.id}-quickmessage`, 3000);
    const toColleague = next(colleagueSocket, `company-${company.id}-quickmessage`, 500);
    const reply = await t.as(ownerSession.token).post('/quick-messages', {
      shortcode: 'oi',
      message: 'Olá, tudo bem?',
    });
    expect(reply.statusCode).toBe(201);
    expect(await toOwner).toMatchObject({ action: 'create', record: { shortcode: 'oi' } });
    expect(await toColleague).toBeUndefined();
  });

  it('authorises joinChatBox like reading the ticket', async () => {
    const a = await t.make.company();
    const b = await t.make.company();
    const queueA1 = await t.make.queue(a.company.id);
    const queueA2 = await t.make.queue(a.company.id);
    const agent = await t.make.user(a.company.id, { queueIds: [queueA1.id] });
    const ticketA1 = await ticketIn(a.company.id, queueA1.id);
    const ticketA2 = await ticketIn(a.company.id, queueA2.id);
    const ticketB = await ticketIn(b.company.id, null);

    const adminSocket = await socketFor(t, (await t.login(a.admin.email)).token);
    const agentSocket = await socketFor(t, (await t.login(agent.email)).token);
    const outsider = await socketFor(t, (await t.login(b.admin.email)).token);

    expect(await ack(adminSocket, 'joinChatBox', ticketA2.id)).toEqual({ ok: true });
    expect(await ack(agentSocket, 'joinChatBox', ticketA1.id)).toEqual({ ok: true });
    expect(await ack(agentSocket, 'joinChatBox', ticketA2.id)).toEqual({ ok: false });
    expect(await ack(outsider, 'joinChatBox', ticketA1.id)).toEqual({ ok: false });
    expect(await ack(outsider, 'joinChatBox', ticketB.id)).toEqual({ ok: true });
    expect(await ack(agentSocket, 'joinChatBox', 'not-a-number')).toEqual({ ok: false });
    expect(await ack(agentSocket, 'joinTickets', 'open')).toEqual({ ok: true });
    expect(await ack(agentSocket, 'joinTickets', 'company-1')).toEqual({ ok: false });
    expect(await ack(agentSocket, 'joinNotification', undefined)).toEqual({ ok: true });

    // Only sockets that joined the ticket's room hear what is sent to it.
    const heardByAgent = next(agentSocket, `company-${a.company.id}-ticket`, 300);
    const heardByAdmin = next(adminSocket, `company-${a.company.id}-ticket`, 1000);
    t.realtime.emit({ companyId: a.company.id, ticketId: ticketA2.id }, 'ticket', {
      action: 'delete',
      ticketId: ticketA2.id,
    });
    expect(await heardByAdmin).toEqual({ action: 'delete', ticketId: ticketA2.id });
    expect(await heardByAgent).toBeUndefined();
  });

  it('keeps user presence from connections and userStatus pings', async () => {
    const { company, admin } = await t.make.company();
    const agent = await t.make.user(company.id);
    const db = new TenantDb(t.database.db, company.id);
    const seenAt = async () => (await db.selectFrom(users, eq(users.id, agent.id)))[0]!.lastSeenAt;

    const adminSocket = await socketFor(t, (await t.login(admin.email)).token);
    const presence = next(adminSocket, `company-${company.id}-user`, 3000, about(agent.id));
    const agentSocket = await socketFor(t, (await t.login(agent.email)).token);
    expect(await presence).toEqual({ action: 'presence', userId: agent.id, online: true });
    expect(await seenAt()).toBeInstanceOf(Date);

    const before = (await seenAt())!.getTime();
    await new Promise((resolve) => setTimeout(resolve, 20));
    agentSocket.emit('userStatus');
    await expect.poll(async () => (await seenAt())?.getTime() ?? 0).toBeGreaterThan(before);

    const offline = next(adminSocket, `company-${company.id}-user`, 3000, about(agent.id));
    agentSocket.disconnect();
    expect(await offline).toEqual({ action: 'presence', userId: agent.id, online: false });
    await expect.poll(seenAt).toBeNull();
    const list = await t.as((await t.login(admin.email)).token).get('/users/list');
    expect(list.json().find((user: { id: number }) => user.id === agent.id).online).toBe(false);
  });
});
