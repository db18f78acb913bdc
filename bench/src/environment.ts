import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import { connectDatabase } from '../../apps/server/src/db/client';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { startApiServer } from '../../apps/server/src/server';

/** The machine a run measured, printed beside its figures. */
export const machine = () => ({
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
});

/**
 * A real server on 127.0.0.1 with a database of its own: a fresh database on DATABASE_URL's
 * server, else an embedded PostgreSQL in a temporary folder.
 */
export async function startBenchServer() {
  const storage = mkdtempSync(join(tmpdir(), 'atendi-bench-storage-'));
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!adminUrl) {
    dataDir = mkdtempSync(join(tmpdir(), 'atendi-bench-pg-'));
    chmodSync(dataDir, 0o755);
    const embedded = await startEmbeddedPostgres(dataDir, 54355, 'postgres');
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const name = `atendi_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url.toString(),
    PORT: '0',
    LOG_LEVEL: 'silent',
    STORAGE_DIR: storage,
    DB_POOL_MAX: '20',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const database = connectDatabase(url.toString(), config.DB_POOL_MAX);
  await runMigrations(database.pool);
  const server = await startApiServer(config, database);
  return {
    ...server,
    database,
    async stop() {
      await server.close();
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
      await stopEmbedded?.();
      rmSync(storage, { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;
