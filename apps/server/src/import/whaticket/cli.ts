import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MultiBar, Presets } from 'cli-progress';
import pg from 'pg';
import { loadConfig } from '../../config';
import { startEmbeddedPostgres } from '../../db/embedded';
import { runMigrations } from '../../db/migrate';
import { Storage } from '../../platform/storage';
import { WhaticketImporter } from './importer';
import { formatReport } from './report';
import { ImportError, WhaticketSource } from './source.repository';
import { ImportTarget } from './target.repository';

const USAGE =
  'Usage: npm run import:whaticket -- --from <postgres://… or mysql://…> [--media <its public/ folder>] [--dry-run] [--merge] [--batch-size N] [--report FILE]';

/**
 * `npm run import:whaticket -- --from URL [--media DIR] [--dry-run] [--merge]` (`node dist/main.js
 * import-whaticket ...` in production): a Whaticket 6.0.0 database into the one this server uses
 * (DATABASE_URL, else the embedded one of DATA_DIR), with a progress bar per table and a report
 * printed and written to a file. Problems the person can act on end it with one line.
 */
export async function runWhaticketImport(args: string[]): Promise<void> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(args);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (!values.from) {
    console.error(USAGE);
    process.exit(2);
  }
  const batchSize = Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 50_000) {
    console.error('--batch-size takes a whole number from 1 to 50000.');
    process.exit(2);
  }
  const config = loadConfig();
  let stopEmbedded: (() => Promise<void>) | undefined;
  let source: WhaticketSource | undefined;
  let target: ImportTarget | undefined;
  const bars = process.stdout.isTTY
    ? new MultiBar(
        {
          format: ' {table} [{bar}] {value}/{total} | {percentage}% | {eta_formatted} left',
          hideCursor: true,
          clearOnComplete: false,
        },
        Presets.shades_classic,
      )
    : undefined;
  // Ctrl-C: the page being written is rolled back with the connection; the rest is kept.
  process.once('SIGINT', () => {
    bars?.stop();
    console.error('\nInterrupted. Run the same command again: it goes on where it stopped.');
    process.exit(130);
  });
  try {
    source = await WhaticketSource.open(values.from);
    let url = config.DATABASE_URL;
    if (!url) {
      const embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
      url = embedded.url;
      stopEmbedded = embedded.stop;
    }
    // The target gets our schema first (as the server's start would): an empty database works.
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await runMigrations(pool);
    await pool.end();
    target = await ImportTarget.open(url, source.label, values['dry-run']);
    const importer = new WhaticketImporter({
      source,
      target,
      // The import signs no media address: the key is of no use beyond this run.
      storage: new Storage(config.STORAGE_DIR, randomBytes(32).toString('hex')),
      secretsKey: config.SECRETS_KEY,
      mediaDir: values.media,
      batchSize,
      onProgress: progressPrinter(bars),
    });
    await importer.checkTarget(values.merge);
    const report = await importer.run();
    bars?.stop();
    const text = formatReport(report);
    const file =
      values.report ?? `whaticket-import-${report.startedAt.slice(0, 19).replace(/[:T]/g, '-')}.md`;
    writeFileSync(file, text);
    writeFileSync(file.replace(/(\.md)?$/, '.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\n${text}`);
    console.log(
      `Report written to ${file}${report.dryRun ? ' (dry run: nothing was written to the database)' : ''}.`,
    );
  } catch (error) {
    bars?.stop();
    process.exitCode = 1;
    if (error instanceof ImportError) console.error(`Import stopped: ${error.message}`);
    else {
      // A lost connection, a full disk: what was committed stays, and the next run goes on from it.
      console.error(
        `Import stopped: ${(error as Error).message}. Run the same command again: it goes on where it stopped.`,
      );
      if (process.env.LOG_LEVEL === 'debug') console.error(error);
    }
  } finally {
    await target?.close();
    await source?.close();
    await stopEmbedded?.();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    options: {
      from: { type: 'string' },
      media: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      merge: { type: 'boolean', default: false },
      'batch-size': { type: 'string', default: '2000' },
      report: { type: 'string' },
    },
  }).values;
}

/** A bar per table on a terminal; elsewhere a line per table at most every second, and its end. */
function progressPrinter(bars: MultiBar | undefined) {
  const open = new Map<string, ReturnType<MultiBar['create']>>();
  const started = new Set<string>();
  let lastLine = 0;
  return ({
    table,
    done,
    total,
    finished,
  }: {
    table: string;
    done: number;
    total: number;
    finished?: boolean;
  }) => {
    if (bars) {
      let bar = open.get(table);
      if (!bar) {
        bar = bars.create(Math.max(total, 1), 0, { table: table.padEnd(20) });
        open.set(table, bar);
      }
      bar.setTotal(Math.max(total, done, 1));
      bar.update(done);
      return;
    }
    const now = Date.now();
    if (finished || !started.has(table) || now - lastLine >= 1000) {
      started.add(table);
      lastLine = now;
      console.log(`${table} ${done}/${total}${finished ? ' done' : ''}`);
    }
  };
}
