import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './database';
import { freePort } from './local';
import { sample } from './metrics';
import { NGINX_BINARY, type NginxFront, startNginx } from './nginx-front';

/**
 * Production as an operator runs it: the server's production build (`node dist/main.js`) twice,
 * on one PostgreSQL and one Redis, behind Debian's nginx, and every request through nginx only.
 * A message that reaches the connection's owner is heard by an agent on the other instance; a
 * reply and a due schedule go out once through the owner; the owner gets SIGTERM during a burst
 * and nothing fails, is lost or doubled while the other instance takes the connection; then
 * that one is killed and the first, restarted, takes it back. Skipped, and saying so, only
 * when this machine has no nginx or no Redis (CI installs both).
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SERVER = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(SERVER, 'dist/main.js');
const METRICS_TOKEN = 'nginx-test-metrics-token-0123456789';
const ADMIN = { email: 'root@example.com', password: 'a long admin password' };

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

const missing = !NGINX_BINARY
  ? 'no nginx'
  : !(await redisAnswers(REDIS_URL))
    ? 'no Redis'
    : undefined;
if (missing) console.warn(`nginx.test.ts skipped: ${missing}.`);

interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let storage: string;
let nginx: NginxFront | undefined;
let front: string;
let pool: pg.Pool;
const children = new Set<ChildProcess>();

function startInstance(name: string, port: number): Promise<Instance> {
  const child = spawn(process.execPath, ['--enable-source-maps', BUNDLE], {
    cwd: SERVER,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      REDIS_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      STORAGE_DIR: storage,
      JWT_SECRET: 'nginx-test-secret-0123456789-0123456789-abcdef',
      SECRETS_KEY: 'nginx-test-secrets-key-0123456789-0123456789',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: 'true',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      DRAIN_GRACE_MS: '1500',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  return (async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${url}/ready`)).ok) break;
      } catch {}
      if (attempt > 600 || child.exitCode !== null)
        throw new Error(`instance ${name} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { name, port, url, child, exited };
  })();
}

async function call(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${front}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  // nginx answers its own failures as HTML: kept as text, so the test says which one it was.
  const json = response.headers.get('content-type')?.includes('application/json');
  return { status: response.status, body: text && json ? JSON.parse(text) : text || undefined };
}

/** An instance's figures, read on its own port (the token opens /metrics). */
async function metricsOf(instance: Instance): Promise<string> {
  const response = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}
const sessionsOn = async (instance: Instance) =>
  sample(await metricsOf(instance), 'atendi_channel_sessions');

async function rows<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  return (await pool.query<T>(text, values)).rows;
}

beforeAll(async () => {
  if (missing) return;
  // The production build, as `npm run build` makes it.
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(SERVER, 'build.ts')], {
    cwd: SERVER,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  database = await createTestDatabase();
  storage = mkdtempSync(join(tmpdir(), 'atendi-nginx-storage-'));
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on('error', () => {});
}, 120_000);

afterAll(async () => {
  if (missing) return;
  for (const child of children) child.kill('SIGKILL');
  await nginx?.stop(process.env.NGINX_TEST_LOG);
  await pool?.end();
  await database?.drop();
  rmSync(storage, { recursive: true, force: true });
});

describe.skipIf(missing)('two production instances behind nginx', () => {
  it('spreads, hands over on SIGTERM and takes back after SIGKILL', {
    timeout: 240_000,
  }, async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    // A first: it seeds the company and takes the connection's lease.
    let a = await startInstance('A', portA);
    nginx = await startNginx([portA]);
    front = nginx.url;
    const login = await fetch(`${front}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const created = await call(token, 'POST', '/whatsapp', {
      name: 'Simulador',
      provider: 'simulator',
      isDefault: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const status = async () => (await call(token, 'GET', `/whatsapp/${id}`)).body;
    await call(token, 'POST', `/whatsappsession/${id}`);
    await expect.poll(async () => (await status()).status, { timeout: 20_000 }).toBe('qrcode');
    const scanned = await call(token, 'POST', `/simulator/connections/${id}/scan`, {
      qrcode: (await status()).qrcode,
    });
    expect(scanned.status).toBe(204);
    await expect.poll(async () => (await status()).status, { timeout: 20_000 }).toBe('CONNECTED');
    expect(await sessionsOn(a)).toBe(1);
    const b = await startInstance('B', portB);
    expect(await sessionsOn(b)).toBe(0);
    // B joins the upstream once it answers /ready, as an operator adds an instance: had nginx
    // tried B's port before B listened, it would keep B out for its fail_timeout and let B back
    // in only after a probe request completes (a websocket probe lasts), so the hand-over below
    // would find no live instance to retry on.
    await nginx.upstreams([portA, portB]);

    // An agent's socket through nginx, until it lands on B (nginx alternates).
    let socket: Socket | undefined;
    for (let attempt = 0; attempt < 40 && !socket; attempt++) {
      const candidate = io(front, {
        query: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      await new Promise<void>((resolve, reject) => {
        candidate.once('connect', () => resolve());
        candidate.once('connect_error', reject);
      });
      if (sample(await metricsOf(b), 'atendi_socket_connections') === 1) socket = candidate;
      else candidate.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(socket, 'a socket on instance B').toBeDefined();
    const companyId = (
      await rows<{ id: number }>('select company_id as id from connections where id = $1', [id])
    )[0]!.id;
    const heard = new Promise<{ message: { body: string } }>((resolve) =>
      socket!.on(`company-${companyId}-appMessage`, (payload) => {
        if (payload?.message?.body === 'olá pelo nginx') resolve(payload);
      }),
    );
    const phone = '5511977770001';
    const inbound = await call(
      token,
      'POST',
      `/simulator/connections/${id}/phones/${phone}/messages`,
      {
        name: 'Cliente',
        body: 'olá pelo nginx',
      },
    );
    expect(inbound.status).toBe(201);
    await expect(heard).resolves.toMatchObject({ message: { body: 'olá pelo nginx' } });
    const ticketId = (
      await rows<{ id: number }>('select id from tickets where whatsapp_id = $1', [id])
    )[0]!.id;
    const contactId = (
      await rows<{ id: number }>('select id from contacts where number = $1', [phone])
    )[0]!.id;

    // A reply posted through nginx (to either instance) is sent by A, the owner.
    const reply = await call(token, 'POST', `/messages/${ticketId}`, {
      body: 'resposta pelo nginx',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const phoneGot = async (body: string) =>
      Number(
        (
          await rows<{ n: string }>(
            `select count(*) as n from simulator_messages where direction = 'outbound' and body = $1`,
            [body],
          )
        )[0]!.n,
      );
    await expect.poll(() => phoneGot('resposta pelo nginx'), { timeout: 20_000 }).toBe(1);
    const outboundOn = async (instance: Instance) =>
      sample(await metricsOf(instance), 'atendi_messages_outbound_total', {
        provider: 'simulator',
        result: 'sent',
      });
    expect(await outboundOn(a)).toBe(1);
    expect(await outboundOn(b)).toBe(0);

    // A schedule due now goes out once.
    const schedule = await call(token, 'POST', '/schedules', {
      body: 'agendada pelo nginx',
      contactId,
      sendAt: new Date(Date.now() - 1_000).toISOString(),
      whatsappId: id,
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    await expect.poll(() => phoneGot('agendada pelo nginx'), { timeout: 30_000 }).toBe(1);

    // The figures agree with what was sent: one message in, two out, all through A.
    const figures = await metricsOf(a);
    expect(
      sample(figures, 'atendi_messages_inbound_total', { provider: 'simulator', result: 'stored' }),
    ).toBe(1);
    expect(
      sample(figures, 'atendi_messages_outbound_total', { provider: 'simulator', result: 'sent' }),
    ).toBe(2);
    const posted = (m: string) =>
      sample(m, 'atendi_http_request_duration_seconds_count', {
        route: '/messages/:ticketId',
        status: '201',
      });
    expect(posted(figures) + posted(await metricsOf(b))).toBe(1);

    // SIGTERM to A in the middle of a burst through nginx: nothing fails, is lost or doubled.
    // (Agents' replies are sent before and after the hand-over, not during it: one that reaches
    // the new owner while its session is still connecting is refused as not sent.)
    const PHONES = 8;
    const ROUNDS = 10;
    const failures: string[] = [];
    let done = 0;
    const burst = (async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const calls = Array.from({ length: PHONES }, async (_, n) => {
          const from = `55119788${String(n).padStart(5, '0')}`;
          const answers = await Promise.all([
            call(token, 'POST', `/simulator/connections/${id}/phones/${from}/messages`, {
              name: `Cliente ${n}`,
              body: `burst ${n}/${round}`,
            }),
            call(token, 'GET', '/tickets?status=open'),
          ]);
          for (const answer of answers) {
            if (answer.status >= 300)
              failures.push(`${answer.status} ${JSON.stringify(answer.body)}`);
          }
        });
        await Promise.all(calls);
        done += 1;
      }
    })();
    await expect.poll(() => done, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const termAt = Date.now();
    a.child.kill('SIGTERM');
    // B owns the connection within 5 seconds.
    await expect.poll(() => sessionsOn(b), { timeout: 5_000, interval: 100 }).toBe(1);
    const tookOver = Date.now() - termAt;
    await burst;
    expect(failures).toEqual([]);
    expect(await a.exited).toBe(0);
    expect(tookOver).toBeLessThan(5_000);
    await expect
      .poll(
        async () =>
          Number(
            (
              await rows<{ n: string }>(
                `select count(*) as n from messages where body like 'burst %'`,
              )
            )[0]!.n,
          ),
        { timeout: 30_000 },
      )
      .toBe(PHONES * ROUNDS);
    const doubled = await rows(
      `select body, count(*) from messages where body like 'burst %' or body like 'reply %'
       group by body having count(*) > 1`,
    );
    expect(doubled).toEqual([]);
    // A reply after the hand-over goes out once, through B.
    const after = await call(token, 'POST', `/messages/${ticketId}`, { body: 'depois da troca' });
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    await expect.poll(() => phoneGot('depois da troca'), { timeout: 20_000 }).toBe(1);

    // B is killed outright; A, restarted, takes the connection within 30 seconds.
    b.child.kill('SIGKILL');
    await b.exited;
    const killedAt = Date.now();
    a = await startInstance('A again', portA);
    await expect.poll(() => sessionsOn(a), { timeout: 30_000, interval: 250 }).toBe(1);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    await expect.poll(async () => (await status()).status, { timeout: 10_000 }).toBe('CONNECTED');
    socket!.disconnect();
  });
});
