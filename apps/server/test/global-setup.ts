import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';
import { freePort, recreateDatabase } from './local';

/** Of this run only, so two runs on one PostgreSQL do not drop each other's template. */
const TEMPLATE_PREFIX = 'atendi_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
  }
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
  const templateUrl = await recreateDatabase(adminUrl, template);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 1 });
  await runMigrations(pool);
  await pool.end();
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
