import { ACK } from '@atendi/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelOptions } from '../src/app';
import type { ChannelSession } from '../src/channels/provider';
import type { SimulatorProvider } from '../src/channels/simulator/simulator.provider';
import {
  connections,
  deferredChannelCommands,
  messages,
  simulatorMessages,
  tickets,
} from '../src/db/schema';
import { LEASE_NAMESPACE } from '../src/platform/leases';
import { FakeGraphApi, messageWebhook, postWebhook } from './fakes/graph-api';
import { startTestServer, type TestServer } from './harness';

/**
 * Two server instances on one PostgreSQL (no Redis needed: leases and commands travel through
 * the database). Each connection runs on one of them at a time, moves when its owner loses the
 * database, and whatever reaches the other instance (an agent's send or deletion, a Cloud API
 * webhook) is carried out once.
 */

let a: TestServer;
let b: TestServer;
let graph: FakeGraphApi;
let token: string;
let companyId: number;

/** Sessions of the simulator that have started and not finished stopping, per connection. */
const live = new Map<number, number>();
/** Sessions that have finished stopping, per connection. */
const stopped = new Map<number, number>();
/** Sessions whose start has finished (the simulator has reported its status), per connection. */
const started = new Map<number, number>();
let mostAtOnce = 0;

/** Counts the simulator sessions an instance runs, by wrapping its provider's sessions. */
function watchSessions(server: TestServer) {
  const provider = server.app.channels.provider<SimulatorProvider>('simulator')!;
  const open = provider.open.bind(provider);
  provider.open = (ref, events) => {
    const session: ChannelSession = open(ref, events);
    const start = session.start.bind(session);
    const stop = session.stop.bind(session);
    let running = false;
    session.start = async () => {
      running = true;
      live.set(ref.id, (live.get(ref.id) ?? 0) + 1);
      mostAtOnce = Math.max(mostAtOnce, live.get(ref.id)!);
      await start();
      started.set(ref.id, (started.get(ref.id) ?? 0) + 1);
    };
    session.stop = async (options) => {
      try {
        await stop(options);
      } finally {
        if (running) {
          live.set(ref.id, live.get(ref.id)! - 1);
          stopped.set(ref.id, (stopped.get(ref.id) ?? 0) + 1);
        }
        running = false;
      }
    };
    return session;
  };
}

const PHONE_NUMBER_ID = '401020304050';
const cloudSettings = {
  phoneNumberId: PHONE_NUMBER_ID,
  accessToken: 'EAAGinstancestest0123456789',
  appSecret: 'instances-app-secret',
  verifyToken: 'instances-verify',
};

beforeAll(async () => {
  graph = await FakeGraphApi.start();
  graph.addNumber(PHONE_NUMBER_ID, cloudSettings.accessToken);
  const channels: ChannelOptions = {
    manager: { sweepMs: 200, requestTimeoutMs: 5_000 },
    leases: { heartbeatMs: 100, heartbeatTimeoutMs: 300, reconnectMs: 100 },
    cloudApi: { healthCheckMs: 60_000 },
  };
  a = await startTestServer(graph.env, undefined, { channels });
  b = await startTestServer(graph.env, a, { channels });
  watchSessions(a);
  watchSessions(b);
  // Each test pairs a connection of its own.
  const plan = await a.make.plan({ connections: 10 });
  const { company, admin } = await a.make.company({ planId: plan.id });
  companyId = company.id;
  token = (await a.login(admin.email)).token;
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await graph?.close();
});

const row = async (id: number) =>
  (await a.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;
const ownerOf = (id: number) => [a, b].filter((server) => server.app.channels.isRunningHere(id));

async function pairedSimulator(name: string): Promise<number> {
  const created = await a.as(token).post('/whatsapp', { name, provider: 'simulator' });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  await a.as(token).post(`/whatsappsession/${id}`);
  await expect.poll(async () => (await row(id)).status).toBe('qrcode');
  const scanned = await b
    .as(token)
    .post(`/simulator/connections/${id}/scan`, { qrcode: (await row(id)).qrcode });
  expect(scanned.statusCode).toBe(204);
  await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
  return id;
}

/** A phone writes to the connection (through either instance) and its ticket exists. */
async function phoneTicket(connectionId: number, phone: string) {
  const sent = await b
    .as(token)
    .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
      name: 'Cliente',
      body: 'olá',
    });
  expect(sent.statusCode).toBe(201);
  const ticketOf = async () =>
    (
      await a.database.db
        .select({ id: tickets.id })
        .from(tickets)
        .where(eq(tickets.whatsappId, connectionId))
    )[0];
  await expect.poll(ticketOf).toBeDefined();
  return (await ticketOf())!.id;
}

/** What the phone got from the connection. */
const phoneGot = (connectionId: number, body: string) =>
  a.database.db
    .select()
    .from(simulatorMessages)
    .where(
      and(
        eq(simulatorMessages.connectionId, connectionId),
        eq(simulatorMessages.direction, 'outbound'),
        eq(simulatorMessages.body, body),
      ),
    );

/** What the phone wrote to the connection, as the phone sees it (with its ticks). */
const phoneWrote = (connectionId: number, phone: string) =>
  a.database.db
    .select()
    .from(simulatorMessages)
    .where(
      and(
        eq(simulatorMessages.connectionId, connectionId),
        eq(simulatorMessages.phone, phone),
        eq(simulatorMessages.direction, 'inbound'),
      ),
    );

describe('two instances on one database', () => {
  it('run a connection on one of them at a time, taken again when its owner loses the database', async () => {
    const id = await pairedSimulator('Dono único');
    expect(ownerOf(id)).toHaveLength(1);
    const [owner] = ownerOf(id);
    const epoch = (await row(id)).leaseEpoch;
    const stops = stopped.get(id) ?? 0;
    const starts = started.get(id) ?? 0;

    // The owner's database session dies: its lock is gone at once, and it stops the session.
    await a.database.pool.query('select pg_terminate_backend($1)', [
      owner!.app.platform.leases.backendPid,
    ]);
    await expect.poll(() => stopped.get(id) ?? 0).toBe(stops + 1);
    // Whichever instance sweeps first takes it (the old owner too, once its new database session
    // is open), under the next epoch, and only one runs it.
    await expect.poll(async () => (await row(id)).leaseEpoch).toBe(epoch + 1);
    await expect.poll(() => ownerOf(id)).toHaveLength(1);
    // The row still says CONNECTED from the old session until the new one reports: wait for the
    // new session's own start (OPENING, then CONNECTED) before reading it.
    await expect.poll(() => started.get(id) ?? 0).toBe(starts + 1);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    expect(live.get(id)).toBe(1);
    expect(mostAtOnce).toBe(1);
    const [next] = ownerOf(id);
    expect((await row(id)).leaseOwner).toBe(next!.app.platform.leases.instanceId);

    // A late status from the old owner's session, under the old epoch, changes nothing.
    await owner!.app.services.connections.applyStatus(
      { id, companyId, name: 'Dono único' },
      { status: 'DISCONNECTED', qrcode: '' },
      epoch,
    );
    expect((await row(id)).status).toBe('CONNECTED');

    // The new owner takes the phone's messages, each once.
    const ticketId = await phoneTicket(id, '5511944440001');
    const stored = await a.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticketId));
    expect(stored.map((message) => message.body)).toEqual(['olá']);
    expect(ownerOf(id)).toEqual([next]);
  });

  it("send an agent's message through the owner when the other instance took the request", async () => {
    const id = await pairedSimulator('Envio cruzado');
    const ticketId = await phoneTicket(id, '5511944440002');
    const [owner] = ownerOf(id);
    const visitor = owner === a ? b : a;
    const sent = await visitor
      .as(token)
      .post(`/messages/${ticketId}`, { body: 'por outra', signMessage: false });
    expect(sent.statusCode, sent.body).toBe(201);
    // Answered before the owner sent it; the owner reports the tick.
    await expect
      .poll(
        async () =>
          (await a.database.db.select().from(messages).where(eq(messages.id, sent.json().id)))[0]
            ?.ack,
      )
      .toBe(2);
    expect(await phoneGot(id, 'por outra')).toHaveLength(1);

    // Deleted for everyone through the owner, the answer awaited.
    const deleted = await visitor.as(token).delete(`/messages/${sent.json().id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ isDeleted: true });
    expect((await phoneGot(id, 'por outra'))[0]!.isDeleted).toBe(true);
  });

  it('ask the owner which numbers are on WhatsApp when the other instance checks them', async () => {
    const id = await pairedSimulator('Checagem cruzada');
    const [owner] = ownerOf(id);
    const visitor = owner === a ? b : a;
    const asked: string[][] = [];
    const session = owner!.app.channels.running.get(id)!.session;
    const ask = session.whatsappNumbers!.bind(session);
    session.whatsappNumbers = (numbers) => {
      asked.push(numbers);
      return ask(numbers);
    };
    const found = await visitor.app.channels.whatsappNumbers(id, [
      '5511944441234',
      '5511944440000',
    ]);
    expect(found).toEqual(
      new Map([
        ['5511944441234', true],
        ['5511944440000', false],
      ]),
    );
    expect(asked).toEqual([['5511944441234', '5511944440000']]);
    expect(visitor.app.channels.isRunningHere(id)).toBe(false);
  });

  it('send what waited while no instance ran the connection, once, when it connects again', async () => {
    const id = await pairedSimulator('Fila de espera');
    const ticketId = await phoneTicket(id, '5511944440003');
    expect((await a.as(token).delete(`/whatsappsession/${id}`)).statusCode).toBe(200);
    await expect.poll(() => ownerOf(id)).toEqual([]);

    const waiting = await b.as(token).post(`/messages/${ticketId}`, {
      body: 'quando voltar',
      signMessage: false,
    });
    expect(waiting.statusCode).toBe(201);
    expect(waiting.json()).toMatchObject({ ack: 1 });
    expect(await phoneGot(id, 'quando voltar')).toHaveLength(0);

    await b.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    await a.as(token).post(`/simulator/connections/${id}/scan`, { qrcode: (await row(id)).qrcode });
    await expect.poll(async () => (await phoneGot(id, 'quando voltar')).length).toBe(1);
    await expect
      .poll(
        async () =>
          (await a.database.db.select().from(messages).where(eq(messages.id, waiting.json().id)))[0]
            ?.sendState,
      )
      .toBe('sent');
    expect(await phoneGot(id, 'quando voltar')).toHaveLength(1);
  });

  it('send read receipts through the owner, and keep them and a deletion asked while no instance runs the connection for when it connects', async () => {
    const id = await pairedSimulator('Comandos guardados');
    const phone = '5511944440005';
    const ticketId = await phoneTicket(id, phone);
    const [owner] = ownerOf(id);
    const visitor = owner === a ? b : a;
    // Read on the instance that does not run the connection: the owner sends the receipt.
    expect((await visitor.as(token).get(`/messages/${ticketId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await phoneWrote(id, phone))[0]?.ack).toBe(ACK.read);
    // The phone writes again; that one is read while nobody runs the connection.
    await b
      .as(token)
      .post(`/simulator/connections/${id}/phones/${phone}/messages`, { body: 'mais uma' });
    const unread = async () =>
      (await phoneWrote(id, phone)).find((message) => message.body === 'mais uma')?.ack;
    await expect
      .poll(async () => (await a.as(token).get(`/tickets/${ticketId}`)).json().unreadMessages)
      .toBe(1);
    const sent = await a.as(token).post(`/messages/${ticketId}`, {
      body: 'apagar depois',
      signMessage: false,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await expect.poll(async () => (await phoneGot(id, 'apagar depois')).length).toBe(1);

    const kept = () =>
      a.database.db
        .select()
        .from(deferredChannelCommands)
        .where(eq(deferredChannelCommands.connectionId, id));

    // The owner dies; before anyone takes the connection over, the lease is held by a stand-in
    // (a takeover under way): the connection is meant to run, and no instance runs it.
    const standIn = await a.database.pool.connect();
    try {
      const waiting = standIn.query('select pg_advisory_lock($1, $2)', [LEASE_NAMESPACE, id]);
      await a.database.pool.query('select pg_terminate_backend($1)', [
        owner!.app.platform.leases.backendPid,
      ]);
      await waiting;
      await expect.poll(() => ownerOf(id)).toEqual([]);

      // The agent reads the ticket and deletes the message meanwhile.
      expect((await b.as(token).get(`/messages/${ticketId}`)).statusCode).toBe(200);
      const deleted = await b.as(token).delete(`/messages/${sent.json().id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toMatchObject({ isDeleted: true });
      await expect
        .poll(async () => (await kept()).map((row) => row.action).sort())
        .toEqual(['delete', 'read']);
      expect(await unread()).toBeLessThan(ACK.read);
      expect((await phoneGot(id, 'apagar depois'))[0]!.isDeleted).toBe(false);
    } finally {
      await standIn.query('select pg_advisory_unlock($1, $2)', [LEASE_NAMESPACE, id]);
      standIn.release();
    }

    // The instance that takes it over carries them out when its session connects, and forgets them.
    await expect.poll(() => ownerOf(id), { timeout: 10_000 }).toHaveLength(1);
    await expect.poll(unread, { timeout: 10_000 }).toBe(ACK.read);
    await expect.poll(async () => (await phoneGot(id, 'apagar depois'))[0]?.isDeleted).toBe(true);
    await expect.poll(async () => (await kept()).length).toBe(0);
  });

  it('take a Cloud API webhook on the instance that does not own the connection', async () => {
    const created = await a.as(token).post('/whatsapp', {
      name: 'Oficial',
      provider: 'cloud-api',
      cloudApi: cloudSettings,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await a.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    const [owner] = ownerOf(id);
    const visitor = owner === a ? b : a;

    const { payload, id: messageId } = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511944440004', name: 'Lia' },
      { type: 'text', text: { body: 'pela outra instância' } },
    );
    const answer = await postWebhook(visitor.url, id, cloudSettings.appSecret, payload);
    expect(answer.status).toBe(200);
    // Answered after the commit: it is there now.
    const stored = () =>
      a.database.db.select().from(messages).where(eq(messages.providerMessageId, messageId));
    expect(await stored()).toHaveLength(1);
    // Meta delivers it again, to the owner this time: still once.
    expect((await postWebhook(owner!.url, id, cloudSettings.appSecret, payload)).status).toBe(200);
    expect(await stored()).toHaveLength(1);
    // The verification works on either instance too.
    const verify = await fetch(
      `${visitor.url}/webhooks/cloud-api/${id}?hub.mode=subscribe&hub.verify_token=${cloudSettings.verifyToken}&hub.challenge=77`,
    );
    expect(await verify.text()).toBe('77');
  });
});
