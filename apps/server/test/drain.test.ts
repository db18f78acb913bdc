import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelOptions } from '../src/app';
import { connections, messages } from '../src/db/schema';
import { startTestServer, type TestServer } from './harness';

/**
 * A drain (what SIGTERM does): /ready turns 503 at once, the instance's connections go to
 * another instance at once (told on the bus, not found by its sweep, and without waiting out a
 * heartbeat), its sockets are closed so they reconnect elsewhere, and requests are still
 * answered during the grace period.
 */
let a: TestServer;
let b: TestServer;
let token: string;

beforeAll(async () => {
  // Sweeps a minute apart and a long heartbeat: only the hand-over can move a connection fast.
  const channels: ChannelOptions = {
    manager: { sweepMs: 60_000 },
    leases: { heartbeatMs: 5_000, heartbeatTimeoutMs: 5_000 },
  };
  a = await startTestServer({}, undefined, { channels });
  const { admin } = await a.make.company();
  token = (await a.login(admin.email)).token;
  b = await startTestServer({}, a, { channels });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const row = async (id: number) =>
  (await a.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;

describe('draining an instance', () => {
  it('hands its connections over at once and keeps answering through the grace period', async () => {
    const created = await a
      .as(token)
      .post('/whatsapp', { name: 'Simulador', provider: 'simulator' });
    const id = created.json().id as number;
    // A's own command: A takes it (B's sweep is a minute away).
    await a.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    await a.as(token).post(`/simulator/connections/${id}/scan`, { qrcode: (await row(id)).qrcode });
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    await expect
      .poll(() => a.app.channels.isRunningHere(id) || b.app.channels.isRunningHere(id))
      .toBe(true);
    const [owner, other] = a.app.channels.isRunningHere(id) ? [a, b] : [b, a];

    const socket: Socket = io(owner.url, {
      query: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const started = Date.now();
    const draining = owner.drain(1_500);
    await expect
      .poll(async () => (await owner.app.inject({ method: 'GET', url: '/ready' })).statusCode)
      .toBe(503);
    // The socket is told to go: a transport close, on which clients reconnect (elsewhere).
    expect(await closed).toBe('transport close');
    // Still answered during the grace period.
    expect((await owner.as(token).get('/tickets')).statusCode).toBe(200);

    await expect.poll(() => other.app.channels.isRunningHere(id), { timeout: 4_000 }).toBe(true);
    // Sooner than a dead owner's takeover, which waits out the heartbeat deadline.
    expect(Date.now() - started).toBeLessThan(other.app.platform.leases.takeoverWaitMs);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    expect((await row(id)).leaseOwner).toBe(other.app.platform.leases.instanceId);

    // What the phone sends now is stored by the new owner.
    const sent = await other
      .as(token)
      .post(`/simulator/connections/${id}/phones/5511966660001/messages`, {
        name: 'C',
        body: 'depois',
      });
    expect(sent.statusCode).toBe(201);
    await expect
      .poll(async () =>
        (await a.database.db.select().from(messages).where(eq(messages.body, 'depois'))).map(
          (message) => message.fromMe,
        ),
      )
      .toEqual([false]);

    await draining;
    socket.disconnect();
  });
});
