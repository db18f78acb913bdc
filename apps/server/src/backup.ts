import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { BackupError, backup } from './db/backup';

/**
 * `npm run backup [-- --out FILE]` (`node dist/main.js backup` in production): the database and
 * the stored files in one .tar.gz (see db/backup.ts). Without --out,
 * backups/atendi-<date and time>.tar.gz beside DATA_DIR.
 */
export async function runBackup(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  const config = loadConfig();
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
  const out = values.out ?? join(config.DATA_DIR, '..', 'backups', `atendi-${stamp}.tar.gz`);
  try {
    const written = await backup({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      storageDir: config.STORAGE_DIR,
      out,
    });
    console.log(
      `Backup written to ${written.out} (${(written.bytes / 1_048_576).toFixed(1)} MiB).`,
    );
  } catch (error) {
    console.error(error instanceof BackupError ? error.message : error);
    process.exit(1);
  }
}
