import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '@atendi/shared';
import type { LightMyRequestResponse } from 'fastify';
import type { ChannelOptions } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase, type Database } from '../src/db/client';
import { globalDb } from '../src/db/global';
import { plans, queues, userQueues, users } from '../src/db/schema';
import { TenantDb, toHandle } from '../src/db/tenant';
import { provisionCompany } from '../src/modules/companies/companies.service';
import { hashPassword } from '../src/platform/auth/passwords';
import type { LogStream } from '../src/platform/logger';
import { type RunningServer, startApiServer } from '../src/server';
import { createTestDatabase } from './database';
import { LeakScanner } from './leaks';

export const TEST_JWT_SECRET = 'test-secret-0123456789-0123456789-abcdef';
/** The key stored secrets are sealed with in tests. */
export const TEST_SECRETS_KEY = 'test-secrets-key-test-secrets-key-0123456789';
export const PASSWORD = 'secret-pass';

export interface Emitted {
  event: string;
  payload: unknown;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++sequence}`;

/** Rows in one line each, straight into the database (tests only). */
export function factories(database: Database) {
  const handle = toHandle(database.db);
  let passwordHash: Promise<string> | undefined;
  const hashed = () => {
    passwordHash ??= hashPassword(PASSWORD);
    return passwordHash;
  };

  const make = {
    async plan(overrides: Partial<typeof plans.$inferInsert> = {}) {
      const [plan] = await globalDb({ db: handle })
        .insert(plans, {
          name: unique('Plan '),
          users: 50,
          connections: 5,
          queues: 10,
          value: 99,
          ...overrides,
        })
        .returning();
      return plan!;
    },

    /** A company with its admin (password PASSWORD). */
    async company(
      overrides: { name?: string; dueDate?: string | null; planId?: number; super?: boolean } = {},
    ) {
      const planId = overrides.planId ?? (await make.plan()).id;
      const email = `${unique('admin')}@example.com`;
      const { company, adminId } = await provisionCompany(globalDb({ db: handle }), {
        name: overrides.name ?? unique('Company '),
        email,
        planId,
        dueDate: overrides.dueDate === undefined ? '2099-01-01' : overrides.dueDate,
        admin: { name: 'Company Admin', email, password: PASSWORD, super: overrides.super },
      });
      return { company, admin: { id: adminId!, email, password: PASSWORD } };
    },

    async user(
      companyId: number,
      overrides: Partial<Omit<typeof users.$inferInsert, 'companyId'>> & {
        queueIds?: number[];
      } = {},
    ) {
      const { queueIds = [], ...fields } = overrides;
      const tenant = new TenantDb(database.db, companyId);
      const email = fields.email ?? `${unique('user')}@example.com`;
      const [row] = await tenant
        .insert(users, {
          name: 'Agent',
          email,
          passwordHash: await hashed(),
          profile: 'user',
          ...fields,
        })
        .returning();
      if (queueIds.length) {
        await tenant.insert(
          userQueues,
          queueIds.map((queueId) => ({ userId: row!.id, queueId })),
        );
      }
      return { ...row!, password: PASSWORD };
    },

    async queue(
      companyId: number,
      overrides: Partial<Omit<typeof queues.$inferInsert, 'companyId'>> = {},
    ) {
      const [row] = await new TenantDb(database.db, companyId)
        .insert(queues, {
          name: unique('Queue '),
          color: `#${(sequence * 7919).toString(16).padStart(6, '0').slice(-6)}`,
          ...overrides,
        })
        .returning();
      return row!;
    },
  };
  return make;
}

export interface TestServer extends RunningServer {
  database: Database;
  databaseUrl: string;
  make: ReturnType<typeof factories>;
  emitted: Emitted[];
  /** Scans everything this server sends for secrets; `stop()` fails on a leak. */
  leaks: LeakScanner;
  login(
    email: string,
    password?: string,
  ): Promise<{ token: string; cookie: string; body: Session }>;
  as(token: string): {
    get(url: string): Promise<LightMyRequestResponse>;
    delete(url: string): Promise<LightMyRequestResponse>;
    post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
    put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  };
  stop(): Promise<void>;
}

/** The real server (HTTP and realtime) on 127.0.0.1 with its own fresh database. */
export async function startTestServer(
  env: Record<string, string> = {},
  /** Another instance on the database of `shared` (scale-out tests). */
  shared?: TestServer,
  /** Fakes for the networks out of reach (WhatsApp Web sockets, the Graph API); a log reader. */
  options: { channels?: ChannelOptions; logStream?: LogStream } = {},
): Promise<TestServer> {
  const testDb = shared
    ? { url: shared.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  const storageDir = mkdtempSync(join(tmpdir(), 'atendi-test-storage-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    STORAGE_DIR: storageDir,
    DATABASE_URL: testDb.url,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    ...env,
  });
  const database = connectDatabase(testDb.url, 8);
  const emitted: Emitted[] = [];
  // Instances on one database share one scanner, checked when the database's owner stops.
  const leaks =
    shared?.leaks ??
    new LeakScanner({
      'the token signing secret': config.JWT_SECRET,
      'the stored secrets key': config.SECRETS_KEY,
      'the storage folder path': storageDir,
    });
  const server = await startApiServer(config, database, {
    onEmit: (event, payload) => {
      emitted.push({ event, payload });
      leaks.emit(event, payload);
    },
    onReply: (request, reply, payload) => leaks.reply(request, reply, payload),
    channels: options.channels,
    logStream: options.logStream,
  });
  const inject = (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    server.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    ...server,
    database,
    databaseUrl: testDb.url,
    make: factories(database),
    emitted,
    leaks,
    async login(email, password = PASSWORD) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email, password },
      });
      if (response.statusCode !== 200) {
        throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
      }
      const cookie = response.cookies.find((c) => c.name === 'jrt');
      return { token: response.json().token, cookie: cookie?.value ?? '', body: response.json() };
    },
    as: (token) => ({
      get: (url) => inject(token, 'GET', url),
      delete: (url) => inject(token, 'DELETE', url),
      post: (url, payload) => inject(token, 'POST', url, payload ?? {}),
      put: (url, payload) => inject(token, 'PUT', url, payload ?? {}),
    }),
    async stop() {
      await server.close();
      // The secrets stored by the end are read before the database goes.
      const scanned = shared ? Promise.resolve() : leaks.assertClean(database.pool);
      if (!shared && process.env.LEAK_SCAN_REPORT) {
        console.info(
          `leak scan: ${leaks.replies} answers (${leaks.streams} streamed, unread) and ${leaks.emits} realtime payloads`,
        );
      }
      const failure = await scanned.then(
        () => undefined,
        (error: unknown) => error,
      );
      await database.close();
      await testDb.drop();
      rmSync(storageDir, { recursive: true, force: true });
      if (failure) throw failure;
    },
  };
}
