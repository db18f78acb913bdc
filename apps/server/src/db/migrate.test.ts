import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { runMigrations } from './migrate';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const schemaShape = async () =>
  (
    await pool.query(`
      select table_name, count(*)::int as columns from information_schema.columns
      where table_schema = 'public' group by table_name order by table_name`)
  ).rows;

describe('migrations', () => {
  it('apply again as a no-op, even from instances booting at the same time', async () => {
    const before = await schemaShape();
    const applied = (
      await pool.query('select count(*)::int as n from drizzle.__drizzle_migrations')
    ).rows[0].n;
    await Promise.all([runMigrations(pool), runMigrations(pool), runMigrations(pool)]);
    expect(await schemaShape()).toEqual(before);
    expect(
      (await pool.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n,
    ).toBe(applied);
  });

  it('give every tenant table a NOT NULL company_id', async () => {
    const { rows } = await pool.query(`
      select table_name, is_nullable from information_schema.columns
      where table_schema = 'public' and column_name = 'company_id'`);
    const tenantTables = rows.map((row) => row.table_name).sort();
    expect(tenantTables).toEqual(
      expect.arrayContaining([
        'connections',
        'contacts',
        'messages',
        'queues',
        'quick_messages',
        'schedules',
        'settings',
        'tags',
        'ticket_notes',
        'ticket_tags',
        'tickets',
        'users',
      ]),
    );
    const nullable = rows.filter(
      (row) => row.is_nullable !== 'NO' && row.table_name !== 'auth_sessions',
    );
    expect(nullable).toEqual([]);
  });
});
