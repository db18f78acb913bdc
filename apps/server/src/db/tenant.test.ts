import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import type { Db } from './client';
import { namedStatement, TenantDb } from './tenant';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

describe('namedStatement', () => {
  const statement = namedStatement<{ amount: number; label: string; unused?: string }>(
    'named_statement_test_v1',
    (p) => `select $1::int as company, ${p.label}::text as label, ${p.amount}::int as amount,
      ${p.amount}::int + 1 as next`,
  );

  it('numbers each name once, in the order the SQL first uses it, after the company', () => {
    expect(statement.text).toContain('$2::text as label, $3::int as amount');
    expect(statement.text).toContain('$3::int + 1 as next');
    expect(statement.keys).toEqual(['label', 'amount']);
  });

  it('binds an input by its names, the company first, on a real PostgreSQL', async () => {
    const db = new TenantDb(drizzle(pool) as unknown as Db, 7);
    const rows = await db.run<
      { company: number; label: string; amount: number; next: number },
      {
        amount: number;
        label: string;
        unused?: string;
      }
    >(statement, { unused: 'ignored', amount: 41, label: 'Loja Centro' });
    expect(rows).toEqual([{ company: 7, label: 'Loja Centro', amount: 41, next: 42 }]);
  });
});
