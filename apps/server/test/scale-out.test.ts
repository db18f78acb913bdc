import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections } from '../src/db/schema';
import { TenantDb } from '../src/db/tenant';
import { startTestServer, type TestServer } from './harness';

/**
 * Two instances on one PostgreSQL and one Redis: an agent connected to one instance hears what
 * the other instance stores, and rate limits are counted once for both. Redis is REDIS_URL, or
 * the usual local one; the file is skipped (and says so) only when no Redis answers there.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at the address, within a second. */
async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const reachable = await redisAnswers(REDIS_URL);
const where = REDIS_URL.replace(/\/\/[^@/]*@/, '//');
if (!reachable) {
  console.warn(
    `scale-out.test.ts skipped: no Redis answers at ${where} (set REDIS_URL to run it).`,
  );
}

describe.skipIf(!reachable)(`several instances (Redis at ${where})`, () => {
  let a: TestServer;
  let b: TestServer;
  let socket: Socket | undefined;

  beforeAll(async () => {
    const env = {
      REDIS_URL,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    };
    a = await startTestServer(env);
    b = await startTestServer(env, a);
  });
  afterAll(async () => {
    socket?.disconnect();
    await b?.stop();
    await a?.stop();
  });

  it('delivers realtime events across instances', async () => {
    const { company, admin } = await a.make.company();
    const [connection] = await new TenantDb(a.database.db, company.id)
      .insert(connections, { name: 'Simulador', provider: 'simulator', isDefault: true })
      .returning();
    const { token } = await b.login(admin.email);
    socket = io(b.url, { query: { token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', () => resolve());
      socket!.once('connect_error', reject);
    });
    const heard = new Promise((resolve) =>
      socket!.once(`company-${company.id}-appMessage`, resolve),
    );
    // Stored by instance A (as its session would), heard on instance B's socket.
    await a.app.services.inbound.receive(
      { id: connection!.id, companyId: company.id, name: connection!.name },
      {
        providerMessageId: `SCALE-${Date.now()}`,
        chatId: '5511970000001',
        isGroup: false,
        fromMe: false,
        contact: { number: '5511970000001', name: 'Cliente' },
        timestamp: new Date(),
        kind: 'text',
        body: 'olá de outra instância',
      },
    );
    await expect(heard).resolves.toMatchObject({
      action: 'create',
      message: { body: 'olá de outra instância' },
    });
  });

  it('counts sign-in attempts once for all instances', async () => {
    const limited = { REDIS_URL, LOGIN_RATE_LIMIT_PER_MINUTE: '4' };
    const first = await startTestServer(limited);
    const second = await startTestServer(limited, first);
    try {
      const octet = () => Math.floor(Math.random() * 250);
      const address = `10.${octet()}.${octet()}.${octet()}`;
      const attempt = (server: TestServer, n: number) =>
        server.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: address,
          payload: { email: `nobody${n}@example.com`, password: 'x' },
        });
      const answers = [];
      for (let n = 0; n < 5; n++) answers.push(await attempt(n % 2 ? second : first, n));
      expect(answers.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401, 429]);
      // the wait left in the shared window, from Redis
      const wait = Number(answers[4]!.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
