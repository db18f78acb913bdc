import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../src/config';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';

export const TEMPLATE_DB = 'atendi_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * Finds a PostgreSQL (DATABASE_URL, else the embedded one under ./data/test-postgres) and builds a
 * migrated template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    const embedded = await startEmbeddedPostgres(
      join(REPO_ROOT, 'data', 'test'),
      Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54330),
      'postgres',
    );
    adminUrl = embedded.url;
    stop = embedded.stop;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.query(`create database ${TEMPLATE_DB}`);
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
  const pool = new pg.Pool({ connectionString: templateUrl, max: 1 });
  await runMigrations(pool);
  await pool.end();
  await admin.end();
  project.provide('adminDatabaseUrl', adminUrl);
  return async () => {
    await stop?.();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
