import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { freePort, recreateDatabase } from '../../apps/server/test/local';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The machine a run measured, printed beside its figures. */
export const machine = () => ({
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
});

/** The 1-minute load average: other work sharing the machine shows here. */
export const load = () => Math.round(loadavg()[0]! * 100) / 100;

/** Resident memory of a process in MiB (Linux /proc, else ps). */
export function rssMiB(pid: number): number {
  const status = `/proc/${pid}/status`;
  if (existsSync(status)) {
    const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1];
    if (kib) return Number(kib) / 1024;
  }
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) / 1024
  );
}

/** Clock ticks a second, the unit of CPU times in /proc. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user and system) a process has used, from /proc; undefined where there is none. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the name in parentheses: state, then utime and stime as the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

/**
 * The real server in a process of its own (as `npm start` runs it: tsx, production settings), on
 * 127.0.0.1 with a database of its own: a fresh database on DATABASE_URL's server, else an
 * embedded PostgreSQL in a temporary folder. The bench keeps a pool of its own to seed data.
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
  const url = await recreateDatabase(adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  await runMigrations(pool);

  const instance = await startInstance(url, storage);
  const serverUrl = instance.url;
  const child = instance.child;

  return {
    url: serverUrl,
    port: instance.port,
    pid: child.pid!,
    /** Another instance of the server on the same database and storage (for the nginx bench). */
    another: async () => {
      const other = await startInstance(url, storage);
      return { url: other.url, port: other.port, stop: () => stopChild(other.child) };
    },
    /** The bench's own connections, for seeding. */
    pool,
    /** The PostgreSQL server's address, for databases of the bench's own beside the server's. */
    adminUrl,
    rssMiB: () => rssMiB(child.pid!),
    /** CPU seconds the server process has used (Linux). */
    cpuSeconds: () => cpuSeconds(child.pid!),
    /** CPU seconds each PostgreSQL backend of the database has used, by pid (Linux, local). */
    async postgresCpuSeconds(): Promise<Map<number, number>> {
      const { rows } = await pool.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database()',
      );
      const used = new Map<number, number>();
      for (const { pid } of rows) {
        const seconds = cpuSeconds(pid);
        if (seconds !== undefined) used.set(pid, seconds);
      }
      return used;
    },
    /** What the server printed (errors only: LOG_LEVEL=error). */
    output: instance.output,
    async stop() {
      await stopChild(child);
      await pool.end();
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

/** What a process of the product runs with in production here: its database, storage and keys. */
export function productionEnv(databaseUrl: string, storage: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    STORAGE_DIR: storage,
    JWT_SECRET: BENCH_JWT_SECRET,
    SECRETS_KEY: 'bench-secrets-key-bench-secrets-key-0123',
    ADMIN_EMAIL: 'super@bench.example',
    ADMIN_PASSWORD: 'bench-super-password',
    LOG_LEVEL: 'error',
  };
}

/** One server process on `databaseUrl`, answering on a port of its own. */
async function startInstance(databaseUrl: string, storage: string) {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. --cpu-prof to profile it.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...productionEnv(databaseUrl, storage),
      HOST: '127.0.0.1',
      PORT: String(port),
      SERVE_WEB: 'false',
      // BENCH_DB_POOL_MAX: the server's pool (its default, 20, otherwise).
      DB_POOL_MAX: process.env.BENCH_DB_POOL_MAX ?? '20',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the server did not start:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/version`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, port, child, output: () => output };
}

/** SIGTERM (the drain), then SIGKILL after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Samples a process's RSS while work runs: the highest value seen. */
export function rssSampler(read: () => number, everyMs = 200) {
  let peak = read();
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, read());
    } catch {}
  }, everyMs);
  return {
    peak: () => peak,
    stop: () => clearInterval(timer),
  };
}
