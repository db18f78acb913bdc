import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import PgBoss from 'pg-boss';

/** apps/server/drizzle, from src/db/ here or from the production bundle in dist/. */
export const MIGRATIONS_FOLDER = [
  new URL('../../drizzle', import.meta.url),
  new URL('../drizzle', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((folder) => existsSync(`${folder}/meta/_journal.json`))!;
const MIGRATION_LOCK = 727_001;
/** The job engine's tables (pg-boss) live in a schema of their own. */
export const JOBS_SCHEMA = 'pgboss';

/**
 * Applies pending migrations under an advisory lock, so several instances booting together run
 * them once. Applying twice is a no-op.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    // Installed here, under the same lock, so a fresh database (and the tests' template) has
    // it; a later pg-boss release migrates its own tables when the engine starts.
    const { rows } = await client.query(
      `select 1 from information_schema.tables where table_schema = $1 and table_name = 'version'`,
      [JOBS_SCHEMA],
    );
    if (rows.length === 0) await client.query(PgBoss.getConstructionPlans(JOBS_SCHEMA));
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

/** Whether every migration of this build is recorded as applied in the database. */
export async function migrationsApplied(pool: pg.Pool): Promise<boolean> {
  const journal = JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
    entries: { when: number }[];
  };
  const latest = Math.max(...journal.entries.map((entry) => entry.when));
  const { rows } = await pool.query<{ applied: string | null }>(
    'select max(created_at) as applied from drizzle.__drizzle_migrations',
  );
  return Number(rows[0]?.applied ?? 0) >= latest;
}
