import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';

/** Of this run only, so two runs on one PostgreSQL do not drop each other's template. */
const TEMPLATE_PREFIX = 'atendi_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Finds a PostgreSQL (DATABASE_URL, else an embedded one of this run's own, so parallel runs do
 * not share it) and builds a migrated template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'atendi-test-pg-'));
    // As root the database runs as a separate system user, which must reach the folder.
    chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres(dataDir, await freePort(), 'postgres');
    adminUrl = embedded.url;
    stop = async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const template = `${TEMPLATE_PREFIX}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template} with (force)`);
  await admin.query(`create database ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 1 });
  await runMigrations(pool);
  await pool.end();
  await admin.end();
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${template} with (force)`).catch(() => {});
    await client.end();
    await stop?.();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
