import { DEFAULT_SCHEDULES } from '@atendi/shared';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';
import { closeSockets, joinChatBox, pairedSimulator, socketFor } from '../inbox';
import { seedWorld, type World } from './world';

/**
 * The realtime channel between companies, with real socket.io clients: company B's admin and
 * agent listen while company A works (a paired simulator connection receiving messages, tickets
 * accepted, transferred and resolved, and every kind of record changed through the API). B hears
 * nothing about A, joins of rooms a caller may not read are refused and give nothing after, and
 * no payload carries a secret.
 */

interface Heard {
  event: string;
  payload: unknown;
  text: string;
}

let t: TestServer;
let world: World;
type Listener = 'aAdmin' | 'aAgent' | 'bAdmin' | 'bAgent' | 'bAllTicket';
const B_LISTENERS = ['bAdmin', 'bAgent', 'bAllTicket'] as const;
const sockets = {} as Record<Listener, Socket>;
const heard: Record<Listener, Heard[]> = {
  aAdmin: [],
  aAgent: [],
  bAdmin: [],
  bAgent: [],
  bAllTicket: [],
};
const refused: string[] = [];

/** Everything a socket receives, as it came over the wire. */
function record(name: Listener, socket: Socket) {
  socket.onAny((event: string, payload: unknown) => {
    heard[name].push({ event, payload, text: JSON.stringify(payload ?? null) });
  });
}

beforeAll(async () => {
  t = await startTestServer();
  world = await seedWorld(t);
  // B's third listener sees the waiting tickets that have no queue yet, as A's new ones are.
  const allTicket = await t.make.user(world.b.companyId, { allTicket: 'enabled' });
  const tokens: Record<Listener, string> = {
    aAdmin: world.a.admin.token,
    aAgent: world.a.agent.token,
    bAdmin: world.b.admin.token,
    bAgent: world.b.agent.token,
    bAllTicket: (await t.login(allTicket.email)).token,
  };
  for (const [name, token] of Object.entries(tokens) as [Listener, string][]) {
    sockets[name] = await socketFor(t, token);
    record(name, sockets[name]);
  }
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

const ok = (response: LightMyRequestResponse, what: string) => {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : response.json();
};

/** The ids a payload is about: the ticket it names, directly or through its message. */
function ticketIdOf(payload: unknown): number | undefined {
  const p = payload as {
    ticketId?: number;
    ticket?: { id?: number };
    message?: { ticketId?: number };
  } | null;
  return p?.ticketId ?? p?.ticket?.id ?? p?.message?.ticketId;
}

const ack = (socket: Socket, message: string, ...args: unknown[]) =>
  socket.timeout(2000).emitWithAck(message, ...args) as Promise<{ ok: boolean }>;

/** A join the server must refuse: acknowledged with ok false and told with joinRefused. */
async function expectRefused(name: Listener, message: string, ...args: unknown[]) {
  const before = heard[name].filter((h) => h.event === 'joinRefused').length;
  const answer = await ack(sockets[name], message, ...args);
  expect(answer, `${name} ${message}(${JSON.stringify(args)})`).toEqual({ ok: false });
  await expect
    .poll(() => heard[name].filter((h) => h.event === 'joinRefused').length)
    .toBe(before + 1);
  refused.push(`${name} ${message}`);
}

/** A message from a simulated phone to A's simulator connection, and the ticket it lands in. */
async function phoneWrites(connectionId: number, phone: string, body: string) {
  ok(
    await t
      .as(world.a.admin.token)
      .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
        name: 'ALPHA7 caller',
        body,
      }),
    'simulated phone message',
  );
  let ticketId: number | undefined;
  await expect
    .poll(() => {
      const found = heard.aAdmin.find(
        (h) =>
          h.event === `company-${world.a.companyId}-appMessage` &&
          (h.payload as { message?: { body?: string } }).message?.body === body,
      );
      ticketId = ticketIdOf(found?.payload);
      return ticketId;
    })
    .toBeTypeOf('number');
  return ticketId!;
}

describe('realtime sweep between companies', () => {
  it('refuses B the rooms of A, before any traffic', async () => {
    const a = world.a;
    for (const name of B_LISTENERS) {
      await expectRefused(name, 'joinChatBox', a.ids.ticket);
      await expectRefused(name, 'joinChatBox', String(a.ids.ticket));
      await expectRefused(name, 'joinChatBox', `company-${a.companyId}-ticket-${a.ids.ticket}`);
      await expectRefused(name, 'joinTickets', `company-${a.companyId}-admins`);
      await expectRefused(name, 'joinTickets', `company-${a.companyId}-queue-${a.ids.queue}`);
      await expectRefused(name, 'joinTickets', a.ids.ticket);
      await expectRefused(name, 'joinNotification', `company-${a.companyId}`);
      await expectRefused(name, 'joinNotification', a.companyId);
    }
    // What the spec's client sends is accepted, and gives nothing of A (checked below).
    expect(await ack(sockets.bAdmin, 'joinTickets', 'open')).toEqual({ ok: true });
    expect(await ack(sockets.bAgent, 'joinTickets', 'pending')).toEqual({ ok: true });
    expect(await ack(sockets.bAdmin, 'joinNotification')).toEqual({ ok: true });
    // A's agent reads its own queue's ticket: the refusals above are not a blanket no.
    expect(await joinChatBox(sockets.aAgent, a.ids.ticket)).toEqual({ ok: true });
  });

  it("lets B hear nothing of A's inbox at work, and refuses an agent another queue's ticket", async () => {
    const a = world.a;
    const admin = t.as(a.admin.token);
    const A = `company-${a.companyId}-`;

    // Messages from a phone through a paired simulator connection open a ticket.
    const simulator = await pairedSimulator(t, a.admin.token, 'ALPHA7 simulator');
    const phone = '5511987650001';
    const ticketId = await phoneWrites(simulator, phone, 'ALPHA7 inbound one');
    const contactId = (
      ok(await admin.get(`/tickets/${ticketId}`), 'ticket') as { contactId: number }
    ).contactId;

    // Accepted by the admin, answered, then transferred to a queue A's agent does not serve.
    const queueY = ok(
      await admin.post('/queue', { name: 'ALPHA7 queue Y', color: '#a17b07' }),
      'queue',
    ) as { id: number };
    ok(await admin.put(`/tickets/${ticketId}`, { status: 'open', userId: a.admin.id }), 'accept');
    ok(await admin.post(`/messages/${ticketId}`, { body: 'ALPHA7 outbound one' }), 'reply');
    ok(await admin.put(`/tickets/${ticketId}`, { queueId: queueY.id, userId: null }), 'transfer');

    // Nobody outside the ticket's readers may join its conversation.
    await expectRefused('aAgent', 'joinChatBox', ticketId);
    for (const name of B_LISTENERS) await expectRefused(name, 'joinChatBox', ticketId);
    const agentHeardBefore = heard.aAgent.length;

    // More traffic on that ticket: a second message, a note, tags, a deleted message, resolve.
    expect(await phoneWrites(simulator, phone, 'ALPHA7 inbound two')).toBe(ticketId);
    ok(
      await admin.put(`/tickets/${ticketId}`, {
        status: 'open',
        userId: a.admin.id,
        queueId: queueY.id,
      }),
      'accept again',
    );
    ok(
      await admin.post('/ticket-notes', { note: 'ALPHA7 live note', ticketId, contactId }),
      'note',
    );
    const tag = ok(
      await admin.post('/tags', { name: 'ALPHA7 live tag', color: '#a17b08' }),
      'tag',
    ) as { id: number };
    ok(await admin.post('/tags/sync', { ticketId, tags: [{ id: tag.id }] }), 'tag sync');
    ok(await admin.put(`/tags/${tag.id}`, { name: 'ALPHA7 live tag 2' }), 'tag rename');
    const second = ok(
      await admin.post(`/messages/${ticketId}`, { body: 'ALPHA7 outbound two' }),
      'second reply',
    ) as { id: number };
    ok(await admin.delete(`/messages/${second.id}`), 'delete message');
    ok(await admin.put(`/tickets/${ticketId}`, { status: 'closed' }), 'resolve');
    ok(await admin.delete(`/tags/${tag.id}`), 'tag delete');

    // Records of every kind created, changed and deleted.
    const contact = ok(
      await admin.post('/contacts', { name: 'ALPHA7 person', number: '5511987650002' }),
      'contact',
    ) as { id: number };
    ok(await admin.put(`/contacts/${contact.id}`, { name: 'ALPHA7 person 2' }), 'contact edit');
    ok(await admin.delete(`/contacts/${contact.id}`), 'contact delete');
    const quick = ok(
      await admin.post('/quick-messages', {
        shortcode: 'ALPHA7-live',
        message: 'ALPHA7 quick reply live',
        geral: true,
      }),
      'quick message',
    ) as { id: number };
    ok(
      await admin.put(`/quick-messages/${quick.id}`, { message: 'ALPHA7 quick reply 2' }),
      'quick edit',
    );
    ok(await admin.delete(`/quick-messages/${quick.id}`), 'quick delete');
    const schedule = ok(
      await admin.post('/schedules', {
        body: 'ALPHA7 live schedule',
        contactId: a.ids.contact,
        sendAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      }),
      'schedule',
    ) as { id: number };
    ok(
      await admin.put(`/schedules/${schedule.id}`, { body: 'ALPHA7 live schedule 2' }),
      'schedule edit',
    );
    ok(await admin.delete(`/schedules/${schedule.id}`), 'schedule delete');
    // A chat of A's admin with A's agent: its members hear it, B nothing.
    const chat = ok(
      await admin.post('/chats', { title: 'ALPHA7 live chat', users: [a.agent.id] }),
      'chat',
    ) as { id: number };
    ok(
      await admin.post(`/chats/${chat.id}/messages`, { message: 'ALPHA7 chat line' }),
      'chat line',
    );
    ok(await t.as(a.agent.token).post(`/chats/${chat.id}/read`, {}), 'chat read');
    ok(await admin.put(`/chats/${chat.id}`, { title: 'ALPHA7 live chat 2' }), 'chat edit');
    ok(await admin.delete(`/chats/${chat.id}`), 'chat delete');
    const user = ok(
      await admin.post('/users', {
        name: 'ALPHA7 hire',
        email: `alpha7-hire-${process.pid}@example.com`,
        password: 'ALPHA7-pass',
        profile: 'user',
        queueIds: [a.ids.queue],
      }),
      'user',
    ) as { id: number };
    ok(await admin.put(`/users/${user.id}`, { name: 'ALPHA7 hire 2' }), 'user edit');
    ok(await admin.delete(`/users/${user.id}`), 'user delete');
    ok(await admin.put(`/queue/${queueY.id}`, { name: 'ALPHA7 queue Y2' }), 'queue edit');
    ok(await admin.put('/settings/userRating', { value: 'enabled' }), 'setting');
    ok(
      await admin.put(`/companies/${a.companyId}/schedules`, { schedules: DEFAULT_SCHEDULES }),
      'company hours',
    );
    const extra = ok(
      await admin.post('/whatsapp', { name: 'ALPHA7 extra', provider: 'simulator' }),
      'connection',
    ) as { id: number };
    ok(await admin.put(`/whatsapp/${extra.id}`, { name: 'ALPHA7 extra 2' }), 'connection edit');
    ok(await admin.post(`/whatsappsession/${extra.id}`), 'session start');
    ok(await admin.delete(`/whatsappsession/${extra.id}`), 'session stop');
    ok(await admin.delete(`/whatsapp/${extra.id}`), 'connection delete');
    ok(await admin.delete(`/queue/${queueY.id}`), 'queue delete');

    // B works too, so its sockets are shown to hear their own company.
    ok(
      await t.as(world.b.admin.token).put(`/contacts/${world.b.ids.contact}`, {
        name: 'BRAVO9 contact 2',
      }),
      'B contact edit',
    );
    await expect
      .poll(() => heard.aAdmin.some((h) => h.event === `${A}whatsapp` && /"delete"/.test(h.text)))
      .toBe(true);
    for (const name of B_LISTENERS) {
      await expect
        .poll(() => heard[name].some((h) => h.event === `company-${world.b.companyId}-contact`))
        .toBe(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));

    // A's admin heard every kind of event: the traffic really went out.
    const topics = new Set(
      heard.aAdmin.filter((h) => h.event.startsWith(A)).map((h) => h.event.slice(A.length)),
    );
    for (const topic of [
      'appMessage',
      'ticket',
      'contact',
      'tag',
      'quickmessage',
      'schedule',
      'chat',
      'user',
      'queue',
      'settings',
      'company',
      'whatsapp',
      'whatsappSession',
    ]) {
      expect([...topics], topic).toContain(topic);
    }

    // B heard nothing about A: no event of A's, no text of A's.
    for (const name of B_LISTENERS) {
      const aboutA = heard[name].filter(
        (h) => h.event.startsWith(A) || h.text.includes(a.marker) || h.event.includes('ALPHA7'),
      );
      expect(aboutA, name).toEqual([]);
      for (const h of heard[name]) {
        expect(
          h.event === 'joinRefused' || h.event.startsWith(`company-${world.b.companyId}-`),
          h.event,
        ).toBe(true);
      }
    }
    // Nor did the server address anything of A's to B's rooms.
    const wrongCompany = t.emitted.filter(
      (e) =>
        !e.event.startsWith(`company-${world.a.companyId}-`) &&
        JSON.stringify(e.payload).includes(a.marker),
    );
    expect(wrongCompany).toEqual([]);

    // A's agent, refused the ticket of another queue, heard nothing of it after, while the
    // admin heard it at work.
    const ofTicket = (list: Heard[]) =>
      list.filter((h) => h.event !== 'joinRefused' && ticketIdOf(h.payload) === ticketId);
    expect(ofTicket(heard.aAgent.slice(agentHeardBefore))).toEqual([]);
    expect(ofTicket(heard.aAdmin).length).toBeGreaterThan(5);
    expect(heard.aAgent.filter((h) => /ALPHA7 (inbound|outbound) (one|two)/.test(h.text))).toEqual(
      [],
    );

    console.info(
      `realtime sweep: A emitted ${t.emitted.filter((e) => e.event.startsWith(A)).length} events over ` +
        `${topics.size} topics; B's ${B_LISTENERS.length} listeners heard ${B_LISTENERS.reduce((n, name) => n + heard[name].length, 0)} ` +
        `events, none about A; ${refused.length} joins refused`,
    );
  });

  it('carries no secret in anything emitted or heard', async () => {
    const secrets = [...world.a.secrets, ...world.b.secrets];
    for (const [name, list] of Object.entries(heard)) {
      for (const h of list) {
        for (const secret of secrets) expect(h.text, `${name} ${h.event}`).not.toContain(secret);
        expect(h.text, `${name} ${h.event}`).not.toContain('$argon2');
        expect(h.text, `${name} ${h.event}`).not.toMatch(/"token":"[^"]/);
      }
    }
    for (const e of t.emitted) {
      const text = JSON.stringify(e.payload);
      for (const secret of secrets) expect(text, e.event).not.toContain(secret);
    }
    // The whole-run scan (answers and payloads against what the database holds) agrees.
    expect(await t.leaks.scan(t.database.pool)).toEqual([]);
    const total = Object.values(heard).reduce((n, list) => n + list.length, 0);
    console.info(
      `realtime sweep: ${total} events heard by ${Object.keys(heard).length} sockets and ${t.emitted.length} emitted, no secret in any`,
    );
  });
});
