import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { recreateDatabase } from '../../test/local';
import { MIGRATIONS_FOLDER, runMigrations } from './migrate';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
});
afterAll(async () => {
  await endPool(pool);
  await database.drop();
});

/**
 * Ends a pool once its connections are closed: end() answers before they are, and a database
 * dropped with force meanwhile cuts them off with an error nobody is listening for.
 */
async function endPool(target: pg.Pool): Promise<void> {
  const open = target.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    target.on('remove', () => {
      closed += 1;
      if (closed === open) resolve();
    });
  });
  await target.end();
  await allClosed;
}

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

/** A copy of the migrations folder that stops after `lastTag`, as a database that old had them. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'atendi-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
  const last = journal.entries.findIndex((entry: { tag: string }) => entry.tag === lastTag);
  expect(last).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe('0007_quick_message_shortcodes', () => {
  it('keeps replies whose shortcodes clash, renaming the later ones by id', async () => {
    const name = `atendi_migrate_${process.pid}_${Date.now()}`;
    const adminUrl = inject('adminDatabaseUrl');
    const url = await recreateDatabase(adminUrl, name);
    const old = new pg.Pool({ connectionString: url, max: 2 });
    const folder = migrationsUpTo('0006_unused_search_queries');
    try {
      await migrate(drizzle(old), { migrationsFolder: folder });
      const one = async (text: string, values: unknown[] = []) =>
        (await old.query(text, values)).rows[0];
      const plan = await one(`insert into plans (name) values ('Plano') returning id`);
      const [a, b] = [
        await one(`insert into companies (name, plan_id) values ('A', $1) returning id`, [plan.id]),
        await one(`insert into companies (name, plan_id) values ('B', $1) returning id`, [plan.id]),
      ];
      const user = async (companyId: number, email: string) =>
        (
          await one(
            `insert into users (company_id, name, email, password_hash) values ($1, $2, $2, 'x') returning id`,
            [companyId, email],
          )
        ).id as number;
      const [ana, bia] = [await user(a.id, 'ana@a.com'), await user(a.id, 'bia@a.com')];
      const reply = async (companyId: number, shortcode: string, geral: boolean, userId: number) =>
        (
          await one(
            `insert into quick_messages (company_id, shortcode, geral, user_id) values ($1, $2, $3, $4) returning id`,
            [companyId, shortcode, geral, userId],
          )
        ).id as number;
      const shared1 = await reply(a.id, 'oi', true, ana);
      const shared2 = await reply(a.id, 'OI', true, bia);
      // already the name the last 'Oi' would get: that one must move on once more
      const taken = await reply(a.id, `oi-${shared2 + 2}`, true, ana);
      const shared3 = await reply(a.id, 'Oi', true, ana);
      const anaOwn1 = await reply(a.id, 'preco', false, ana);
      const anaOwn2 = await reply(a.id, 'preco', false, ana);
      const biaOwn = await reply(a.id, 'preco', false, bia);
      const elsewhere = await reply(b.id, 'oi', true, await user(b.id, 'caio@b.com'));
      expect(shared3).toBe(shared2 + 2);

      await runMigrations(old);

      const { rows } = await old.query('select id, shortcode from quick_messages order by id');
      const shortcodeOf = new Map(rows.map((row) => [row.id, row.shortcode]));
      expect(shortcodeOf.get(shared1)).toBe('oi');
      expect(shortcodeOf.get(shared2)).toBe(`OI-${shared2}`);
      expect(shortcodeOf.get(taken)).toBe(`oi-${shared3}`);
      expect(shortcodeOf.get(shared3)).toBe(`Oi-${shared3}-${shared3}`);
      expect(shortcodeOf.get(anaOwn1)).toBe('preco');
      expect(shortcodeOf.get(anaOwn2)).toBe(`preco-${anaOwn2}`);
      expect(shortcodeOf.get(biaOwn)).toBe('preco');
      expect(shortcodeOf.get(elsewhere)).toBe('oi');
      expect(rows).toHaveLength(8);
      // and from now on the index refuses a clash
      await expect(reply(a.id, 'PRECO', false, bia)).rejects.toMatchObject({
        constraint: 'quick_messages_personal_shortcode_key',
      });
    } finally {
      await endPool(old);
      rmSync(folder, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
