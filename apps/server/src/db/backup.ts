import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { create } from 'tar';
import { embeddedCluster } from './embedded';

export interface BackupOptions {
  /** The database's URL; without one, the embedded cluster of `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  storageDir: string;
  /** The archive to write (.tar.gz). */
  out: string;
}

/** Why a backup cannot be made, in one sentence that says what to do. */
export class BackupError extends Error {}

/**
 * One archive with the database and the stored files, which belong together (messages name
 * their media files). With DATABASE_URL: `database.dump`, pg_dump's custom format (restore with
 * pg_restore), taken while the server runs. The embedded database is copied as its folder
 * (`database/`), which is consistent only while no server runs on it: a running one is refused.
 * The stored files are `storage/`. The archive is written beside its final name and renamed, so
 * an interrupted backup never leaves a file that looks whole.
 */
export async function backup(options: BackupOptions): Promise<{ out: string; bytes: number }> {
  mkdirSync(dirname(options.out), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'atendi-backup-'));
  try {
    // The archive's layout, as links to where each part lives here (packed as what they link to).
    const parts: string[] = [];
    if (options.databaseUrl) {
      await pgDump(options.databaseUrl, join(work, 'database.dump'));
      parts.push('database.dump');
    } else {
      const cluster = embeddedCluster(options.dataDir);
      if (!cluster) {
        throw new BackupError(
          `No embedded database was found for DATA_DIR ${options.dataDir}: start the server once, or set DATABASE_URL.`,
        );
      }
      if (existsSync(join(cluster, 'postmaster.pid'))) {
        throw new BackupError(
          'The embedded database is running: stop the server (Ctrl+C), then run npm run backup again.',
        );
      }
      symlinkSync(resolve(cluster), join(work, 'database'));
      parts.push('database');
    }
    if (existsSync(options.storageDir)) {
      symlinkSync(resolve(options.storageDir), join(work, 'storage'));
      parts.push('storage');
    }
    const partial = `${options.out}.partial`;
    await create({ gzip: true, file: partial, cwd: work, follow: true, portable: true }, parts);
    renameSync(partial, options.out);
    return { out: options.out, bytes: statSync(options.out).size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function pgDump(databaseUrl: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', ['--format=custom', `--file=${file}`, databaseUrl], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              'pg_dump was not found: install the PostgreSQL client tools of your server version (apt-get install postgresql-client).',
            )
          : error,
      ),
    );
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`pg_dump failed: ${errors.trim()}`)),
    );
  });
}
