import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, backup } from '../src/db/backup';
import { embeddedCluster, startEmbeddedPostgres } from '../src/db/embedded';
import { createTestDatabase } from './database';
import { withDatabase } from './local';

/** `npm run backup`: the database and the stored files in one archive, restorable. */

let dir: string;
let storageDir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atendi-backup-test-'));
  storageDir = join(dir, 'storage');
  mkdirSync(join(storageDir, 'media', '1'), { recursive: true });
  writeFileSync(join(storageDir, 'media', '1', 'foto.jpg'), 'imagem guardada');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const unpack = async (file: string) => {
  const into = mkdtempSync(join(dir, 'unpacked-'));
  await extract({ file, cwd: into });
  return into;
};

// pg_dump must be of the server's version: the PostgreSQL named by DATABASE_URL (CI's), with
// the client tools of the same installation.
const pgDump = spawnSync('pg_dump', ['--version']).status === 0;

describe('backup with DATABASE_URL', () => {
  it.skipIf(!process.env.DATABASE_URL || !pgDump)(
    'dumps the database while it runs, with the files, and the dump restores',
    { timeout: 60_000 },
    async () => {
      const source = await createTestDatabase();
      const copy = await createTestDatabase();
      try {
        const client = new pg.Client({ connectionString: source.url });
        await client.connect();
        await client.query(
          "insert into plans (name, users, connections, queues, value) values ('Backup', 3, 1, 2, 10)",
        );
        await client.end();

        const out = join(dir, 'with-url', 'atendi.tar.gz');
        const written = await backup({ databaseUrl: source.url, dataDir: dir, storageDir, out });
        expect(written.bytes).toBeGreaterThan(0);
        const unpacked = await unpack(out);
        expect(readFileSync(join(unpacked, 'database.dump')).subarray(0, 5).toString()).toBe(
          'PGDMP',
        );
        expect(readFileSync(join(unpacked, 'storage', 'media', '1', 'foto.jpg'), 'utf8')).toBe(
          'imagem guardada',
        );

        // Into another (migrated, empty of data) database: the row comes back.
        const restored = spawnSync('pg_restore', [
          '--clean',
          '--if-exists',
          '--no-owner',
          `--dbname=${copy.url}`,
          join(unpacked, 'database.dump'),
        ]);
        expect(restored.status, restored.stderr.toString()).toBe(0);
        const check = new pg.Client({ connectionString: copy.url });
        await check.connect();
        const { rows } = await check.query("select users from plans where name = 'Backup'");
        await check.end();
        expect(rows).toEqual([{ users: 3 }]);
      } finally {
        await source.drop();
        await copy.drop();
      }
    },
  );
});

describe('backup of the embedded database', () => {
  it('refuses while the server runs on it, then copies its folder with the files', {
    timeout: 120_000,
  }, async () => {
    const dataDir = join(dir, 'data');
    const embedded = await startEmbeddedPostgres(dataDir, 54_377, 'atendi');
    const cluster = embeddedCluster(dataDir)!;
    try {
      const client = new pg.Client({ connectionString: withDatabase(embedded.url, 'atendi') });
      await client.connect();
      await client.query('create table guardado (texto text)');
      await client.query("insert into guardado values ('antes do backup')");
      await client.end();
      const out = join(dir, 'embedded', 'atendi.tar.gz');
      await expect(backup({ dataDir, storageDir, out })).rejects.toThrow(BackupError);
      await expect(backup({ dataDir, storageDir, out })).rejects.toThrow(/stop the server/);
      await embedded.stop();

      await backup({ dataDir, storageDir, out });
      const unpacked = await unpack(out);
      expect(readFileSync(join(unpacked, 'database', 'PG_VERSION'), 'utf8').trim()).toMatch(
        /^\d+$/,
      );
      expect(readFileSync(join(unpacked, 'storage', 'media', '1', 'foto.jpg'), 'utf8')).toBe(
        'imagem guardada',
      );
      // No half-written archive beside it.
      expect(
        spawnSync('ls', [join(dir, 'embedded')])
          .stdout.toString()
          .trim(),
      ).toBe('atendi.tar.gz');
    } finally {
      await embedded.stop().catch(() => {});
      if (cluster && !cluster.startsWith(dataDir))
        rmSync(join(cluster, '..'), { recursive: true, force: true });
    }
  });
});
