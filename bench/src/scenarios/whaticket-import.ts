import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ImportReport } from '../../../apps/server/src/import/whaticket/report';
import { buildWhaticketSource } from '../../../apps/server/test/fixtures/whaticket/generate';
import type { Dialect } from '../../../apps/server/test/fixtures/whaticket/schema';
import { recreateDatabase } from '../../../apps/server/test/local';
import { productionEnv, ROOT, rssMiB, rssSampler } from '../environment';
import { round } from '../stats';

export interface WhaticketImportOptions {
  /** Messages of the generated source (about; whole tickets of 100 messages). */
  messages: number;
  dialect: Dialect;
  /** The source's server: DATABASE_URL's for PostgreSQL, MYSQL_URL (or local MariaDB) for MySQL. */
  serverUrl: string;
  /** The PostgreSQL server the target database is made on. */
  adminUrl: string;
  batchSize: number;
}

/**
 * `npm run import:whaticket` on a generated Whaticket 6.0.0 source (apps/server/test/fixtures/
 * whaticket: two companies, tickets of 100 messages, two media files per ticket) into a fresh
 * database: the command runs as a process of its own, as a person would run it, and is timed
 * from its start to its exit; the import's own time, its messages per second and the command's
 * peak memory (RSS, sampled every 200 ms, and the process's own maximum from the report) are
 * reported. The generation of the source is not timed.
 */
export async function whaticketImportScenario(options: WhaticketImportOptions) {
  const perTicket = 100;
  const contactsPerCompany = Math.max(1, Math.round(options.messages / perTicket / 2));
  const work = mkdtempSync(join(tmpdir(), 'bench-whaticket-'));
  const media = join(work, 'public');
  const generating = performance.now();
  const fixture = await buildWhaticketSource({
    dialect: options.dialect,
    serverUrl: options.serverUrl,
    mediaDir: media,
    companies: 2,
    contactsPerCompany,
    messagesPerTicket: perTicket,
    chunk: 1000,
  });
  const generatedSeconds = (performance.now() - generating) / 1000;
  const database = `atendi_bench_import_${process.pid}`;
  const targetUrl = await recreateDatabase(options.adminUrl, database);
  const reportFile = join(work, 'report.md');
  try {
    const start = performance.now();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/main.ts',
        'import-whaticket',
        '--from',
        fixture.url,
        '--media',
        media,
        '--batch-size',
        String(options.batchSize),
        '--report',
        reportFile,
      ],
      {
        cwd: ROOT,
        env: productionEnv(targetUrl, join(work, 'storage')),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    // RSS when the messages start and when they are done: the phase should not grow it.
    const messagesRss: { start?: number; end?: number } = {};
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-4000);
      try {
        if (messagesRss.start === undefined && /^Messages \d+\//m.test(text))
          messagesRss.start = rssMiB(child.pid!);
        if (/^Messages \d+\/\d+ done/m.test(text)) messagesRss.end = rssMiB(child.pid!);
      } catch {}
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const sampler = rssSampler(() => rssMiB(child.pid!));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const commandSeconds = (performance.now() - start) / 1000;
    sampler.stop();
    if (code !== 0) throw new Error(`the import ended with ${code}:\n${output}`);
    const report = JSON.parse(
      readFileSync(reportFile.replace(/\.md$/, '.json'), 'utf8'),
    ) as ImportReport;
    const messages = report.tables.find((t) => t.source === 'Messages')!;
    const seconds = report.seconds ?? commandSeconds;
    const target = new pg.Client({ connectionString: targetUrl });
    await target.connect();
    const { rows } = await target.query<{ n: number }>('select count(*)::int as n from messages');
    await target.end();
    return {
      dialect: options.dialect,
      sourceMessages: messages.read,
      imported: messages.imported,
      stored: rows[0]!.n,
      tickets: report.tables.find((t) => t.source === 'Tickets')!.imported,
      generatedSeconds: round(generatedSeconds),
      /** The import itself (the report's time), and the command from start to exit. */
      seconds: round(seconds),
      commandSeconds: round(commandSeconds),
      messagesPerSecond: round(messages.read / Math.max(seconds, 0.001)),
      /** The messages step alone (its search words and quotes included). */
      messagesSeconds: messages.seconds,
      /** The command's resident memory at its largest: sampled, and its own maximum. */
      rssPeakMiB: Math.round(Math.max(sampler.peak(), report.peakRssMiB ?? 0)),
      /** Its resident memory as the messages started, and as they were done. */
      rssMessagesStartMiB: messagesRss.start === undefined ? null : Math.round(messagesRss.start),
      rssMessagesEndMiB: messagesRss.end === undefined ? null : Math.round(messagesRss.end),
      batchSize: options.batchSize,
    };
  } finally {
    const admin = new pg.Client({ connectionString: options.adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await fixture.drop();
    rmSync(work, { recursive: true, force: true });
  }
}
