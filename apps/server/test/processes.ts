import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase } from './database';
import { freePort } from './local';

/**
 * Real server processes (`src/main.ts`) on one fresh database and one storage folder, for tests
 * that kill an instance with SIGKILL: what a crash leaves, only a process of its own can show.
 */
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface Instance {
  url: string;
  child: ChildProcess;
}

export class InstanceGroup {
  readonly #processes = new Set<ChildProcess>();

  private constructor(
    readonly database: Awaited<ReturnType<typeof createTestDatabase>>,
    readonly storage: string,
    /** A small pool of the test's own, to read what the instances wrote. */
    readonly pool: pg.Pool,
  ) {}

  static async create(): Promise<InstanceGroup> {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // Dropping the database at the end terminates a session the pool is still closing; that
    // goodbye is not a failure of the test.
    pool.on('error', () => {});
    return new InstanceGroup(database, mkdtempSync(join(tmpdir(), 'atendi-instances-')), pool);
  }

  /** Starts an instance (the first one seeds the demo company) and waits until it answers. */
  async start(env: Record<string, string> = {}): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        DATABASE_URL: this.database.url,
        PORT: String(port),
        SERVE_WEB: 'false',
        STORAGE_DIR: this.storage,
        LOG_LEVEL: 'error',
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.#processes.add(child);
    const url = `http://127.0.0.1:${port}`;
    // A loaded machine may take a while to load the TypeScript sources.
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/version`)).ok) break;
      } catch {}
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error('instance did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { url, child };
  }

  async count(sql: string, values: unknown[] = []): Promise<number> {
    return Number((await this.pool.query(sql, values)).rows[0].count);
  }

  async close(): Promise<void> {
    for (const child of this.#processes) child.kill('SIGKILL');
    await this.pool.end();
    await this.database.drop();
    rmSync(this.storage, { recursive: true, force: true });
  }
}

/** Fields the tests read from the API's answers. */
export interface Answer {
  id: number;
  status: string;
  qrcode: string;
}

export async function call(
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

/** Reads until `done` holds or `ms` pass; answers the last reading either way. */
export async function poll<T>(
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

/** Signs in as the demo admin and pairs the demo company's simulator connection. */
export async function pairedDemo(url: string): Promise<{ token: string; connectionId: number }> {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@admin.com', password: '123456' }),
  });
  const { token } = (await login.json()) as { token: string };
  const connection = (await call(url, token, 'GET', '/whatsapp')).body[0]!;
  const status = async () => (await call(url, token, 'GET', `/whatsapp/${connection.id}`)).body;
  const waiting = await poll(status, (c) => c.status === 'qrcode');
  const scanned = await call(url, token, 'POST', `/simulator/connections/${connection.id}/scan`, {
    qrcode: waiting.qrcode,
  });
  if (scanned.status !== 204) throw new Error(`pairing answered ${scanned.status}`);
  const connected = await poll(status, (c) => c.status === 'CONNECTED');
  if (connected.status !== 'CONNECTED') throw new Error('the simulator did not connect');
  return { token, connectionId: connection.id };
}
