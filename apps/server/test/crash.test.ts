import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './database';
import { freePort } from './local';

/**
 * Real server processes on one database: the owner of a connection is killed with SIGKILL in the
 * middle of a burst of inbound messages; the other instance takes the connection over, the
 * killed one comes back, and every message is stored exactly once.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const PHONES = 20;
const PER_PHONE = 15;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let storage: string;
let pool: pg.Pool;
const processes = new Set<ChildProcess>();

async function startInstance() {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      DATABASE_URL: database.url,
      PORT: String(port),
      SERVE_WEB: 'false',
      STORAGE_DIR: storage,
      LOG_LEVEL: 'error',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  processes.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}/version`)).ok) break;
    } catch {}
    if (attempt > 200 || child.exitCode !== null) throw new Error('instance did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child };
}

/** Fields the test reads from the API's answers. */
interface Answer {
  id: number;
  status: string;
  qrcode: string;
}

async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Answer & Answer[] }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: response.status,
    body: (response.status === 204 ? undefined : await response.json()) as Answer & Answer[],
  };
}

async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  storage = mkdtempSync(join(tmpdir(), 'atendi-crash-'));
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // Dropping the database at the end terminates a session the pool is still closing; that
  // goodbye is not a failure of the test.
  pool.on('error', () => {});
});

afterAll(async () => {
  for (const child of processes) child.kill('SIGKILL');
  await pool.end();
  await database.drop();
  rmSync(storage, { recursive: true, force: true });
});

describe('a connection owner killed mid-burst', () => {
  it('loses and duplicates nothing', { timeout: 120_000 }, async () => {
    const owner = await startInstance(); // seeds the demo company and takes the simulator's lease
    const standby = await startInstance();
    const login = await fetch(`${standby.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@admin.com', password: '123456' }),
    });
    const { token } = (await login.json()) as { token: string };
    const connection = (await call(standby.url, token, 'GET', '/whatsapp')).body[0]!;
    const status = async () =>
      (await call(standby.url, token, 'GET', `/whatsapp/${connection.id}`)).body;
    const waiting = await poll(status, (c) => c.status === 'qrcode');
    expect(
      (
        await call(standby.url, token, 'POST', `/simulator/connections/${connection.id}/scan`, {
          qrcode: waiting.qrcode,
        })
      ).status,
    ).toBe(204);
    expect((await poll(status, (c) => c.status === 'CONNECTED')).status).toBe('CONNECTED');

    // The phones keep talking to the standby instance's HTTP while the owner dies.
    const send = (phone: number, n: number) =>
      call(
        standby.url,
        token,
        'POST',
        `/simulator/connections/${connection.id}/phones/55119700${String(phone).padStart(5, '0')}/messages`,
        {
          name: `Cliente ${phone}`,
          body: `mensagem ${n}`,
        },
      );
    let sent = 0;
    const burst = (async () => {
      for (let n = 0; n < PER_PHONE; n++) {
        const answers = await Promise.all(
          Array.from({ length: PHONES }, (_, phone) => send(phone, n)),
        );
        sent += answers.filter((answer) => answer.status === 201).length;
      }
    })();
    await poll(
      async () => sent,
      (count) => count >= (PHONES * PER_PHONE) / 3,
    );
    const storedBeforeKill = Number(
      (await pool.query('select count(*) from messages')).rows[0].count,
    );
    owner.child.kill('SIGKILL');
    await burst;
    expect(sent).toBe(PHONES * PER_PHONE);
    expect(storedBeforeKill).toBeLessThan(PHONES * PER_PHONE);

    // The standby's lease sweep takes the connection over and delivers what the phones sent.
    const count = async () =>
      Number((await pool.query('select count(*) from messages')).rows[0].count);
    const afterTakeover = await poll(count, (stored) => stored > storedBeforeKill, 20_000);
    expect(afterTakeover).toBeGreaterThan(storedBeforeKill);

    await startInstance(); // the killed instance comes back
    const stored = await poll(
      async () => Number((await pool.query('select count(*) from messages')).rows[0].count),
      (count) => count >= PHONES * PER_PHONE,
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows } = await pool.query(`
      select count(*)::int as messages, count(distinct provider_message_id)::int as distinct_ids,
        (select count(*)::int from simulator_messages where direction = 'inbound' and delivered_at is null) as undelivered,
        (select count(*)::int from tickets) as tickets,
        (select count(*)::int from contacts) as contacts
      from messages`);
    expect(stored).toBe(PHONES * PER_PHONE);
    expect(rows[0]).toEqual({
      messages: PHONES * PER_PHONE,
      distinct_ids: PHONES * PER_PHONE,
      undelivered: 0,
      tickets: PHONES,
      contacts: PHONES,
    });
  });
});
