import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { load, machine, rssSampler, startBenchServer } from './environment';
import { generate } from './generate';
import { campaignScenario } from './scenarios/campaigns';
import { contactImportScenario } from './scenarios/contact-import';
import { type ListResult, listScenarios } from './scenarios/lists';
import { messagingScenarios } from './scenarios/messaging';
import { nginxScenario } from './scenarios/nginx';
import { scheduleScenario } from './scenarios/schedules';
import { whaticketImportScenario } from './scenarios/whaticket-import';
import { initialJavaScript } from './web';

/**
 * `npm run bench [-- --scale N] [--only messaging|schedules|lists|nginx|contact-import|campaigns|whaticket-import] [--whaticket-messages N]` - seeds data with set-based SQL, runs the benchmarks against the
 * real server (a process of its own) on 127.0.0.1, prints a table and writes
 * bench/results/latest.json and latest.md. Targets are reported, never asserted.
 */
const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    messages: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    contacts: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '64' },
    requests: { type: 'string', default: '200' },
    sends: { type: 'string', default: '200' },
    agents: { type: 'string', default: '500' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '20' },
    /** Schedules falling due at the same instant. */
    schedules: { type: 'string', default: '10000' },
    /** Rows of the spreadsheet imported into a contact list. */
    'import-rows': { type: 'string', default: '100000' },
    /** Recipients of the campaign (times --scale), and how long its sends are watched. */
    'campaign-recipients': { type: 'string', default: '100000' },
    'campaign-seconds': { type: 'string', default: '20' },
    'skip-web-build': { type: 'boolean', default: false },
    /** `messaging`, `schedules`, `lists`, `nginx`, `contact-import` or `campaigns` runs only those benchmarks, prints them and writes results/only-<name>.json. */
    /** Callers at once for the nginx throughput benchmark, and its request count. */
    'nginx-concurrency': { type: 'string', default: '16' },
    'nginx-requests': { type: 'string', default: '3000' },
    /**
     * Messages of the generated Whaticket source moved by `npm run import:whaticket`: 100,000 by
     * default (about three minutes with the generation); 1000000 for the million.
     */
    'whaticket-messages': { type: 'string', default: '100000' },
    /** The generated source's dialect: postgres, or mysql (MYSQL_URL, else a local MariaDB). */
    'whaticket-dialect': { type: 'string', default: 'postgres' },
    only: { type: 'string' },
  },
});
const ONLY = [
  'messaging',
  'schedules',
  'lists',
  'nginx',
  'contact-import',
  'campaigns',
  'whaticket-import',
];
if (values.only !== undefined && !ONLY.includes(values.only)) {
  throw new Error(`--only takes ${ONLY.join(', ')}, not '${values.only}'`);
}

const RESULTS = join(import.meta.dirname, '..', 'results');

/**
 * The end of an `--only` run: its figures printed and written to results/only-<name>.json with
 * the machine and its load (latest.json and latest.md stay the last full run's).
 */
async function finishOnly(figures: object): Promise<never> {
  const written = {
    at: new Date().toISOString(),
    only: values.only,
    machine: { ...machine(), loadAverage1m: { start: loadAtStart, end: load() } },
    figures,
  };
  console.log(JSON.stringify(written, null, 2));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, `only-${values.only}.json`), `${JSON.stringify(written, null, 2)}\n`);
  sampler.stop();
  await server.stop();
  process.exit(0);
}
/** Webhooks the server did not take, by answer: ", 1 webhook refused (webhook: 500 ...)". */
const refusedText = (refused: Record<string, number>) => {
  const entries = Object.entries(refused);
  if (entries.length === 0) return '';
  const count = entries.reduce((sum, [, n]) => sum + n, 0);
  return `, ${count} webhook(s) refused: ${entries.map(([why, n]) => `${n}x ${why}`).join('; ')}`;
};

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** The campaign benchmark's rows of the table. */
function campaignRows(c: Awaited<ReturnType<typeof campaignScenario>>) {
  const everySent = c.sent === c.delivered && c.delivered === c.atNetwork;
  return [
    `| campaign to a ${c.recipients}-recipient contact list: POST /campaigns (due at once) until its job has copied every recipient and it runs | ${c.enqueueSeconds} s (${c.copied} of ${c.recipients} copied) | < ${TARGETS.campaignEnqueueSeconds} s, every recipient | ${verdict(c.enqueueSeconds < TARGETS.campaignEnqueueSeconds && c.copied === c.recipients)} |`,
    `| campaign scheduler overhead per send (pause set to 0; lock, claim, store, hand to the simulator, record), ${c.sendsWatched} sends in ${c.watchedSeconds} s: mean / p50 / p95 / p99 from one send to the next | ${c.overheadMsPerSend} / ${c.gapMs.p50} / ${c.gapMs.p95} / ${c.gapMs.p99} ms, ${c.sendsPerSecond} sends/s (${c.sent} claimed, ${c.delivered} delivered, ${c.atNetwork} at the network) | mean < ${TARGETS.campaignOverheadMsPerSend} ms, each claimed send delivered once | ${verdict(c.overheadMsPerSend < TARGETS.campaignOverheadMsPerSend && everySent)} |`,
  ];
}

/** The Whaticket import benchmark's row of the table. */
function whaticketRow(w: Awaited<ReturnType<typeof whaticketImportScenario>>) {
  return `| Whaticket import: npm run import:whaticket (a process of its own) of a generated ${w.dialect} source with ${w.sourceMessages} messages in ${w.tickets} tickets (two media files each) into a fresh database, batches of ${w.batchSize} | ${w.seconds} s (the command ${w.commandSeconds} s), ${w.messagesPerSecond} messages/s (${w.stored} stored), RSS peak ${w.rssPeakMiB} MiB (${w.rssMessagesStartMiB} as the messages started, ${w.rssMessagesEndMiB} as they were done) | a million in minutes: < ${TARGETS.whaticketImportSecondsPerMillion} s per million | ${verdict((w.seconds * 1_000_000) / w.sourceMessages < TARGETS.whaticketImportSecondsPerMillion && w.stored === w.imported)} |`;
}

const TARGETS = {
  /** A million messages moved from Whaticket in minutes (ten at most). */
  whaticketImportSecondsPerMillion: 600,
  inboundMessagesPerSecond: 1500,
  inboundP99Ms: 100,
  listP95Ms: 20,
  searchP95Ms: 60,
  dashboardP95Ms: 50,
  growth: 2,
  initialJavaScriptGzipKB: 300,
  campaignEnqueueSeconds: 10,
  /** 2% of the shortest pause a campaign may have between sends besides none (5 s). */
  campaignOverheadMsPerSend: 100,
};
const scale = Number(values.scale);
const requests = Number(values.requests);
const loadAtStart = load();

const server = await startBenchServer();
const postgres = `PostgreSQL ${(await server.pool.query('show server_version')).rows[0].server_version}${process.env.DATABASE_URL ? '' : ' (embedded)'}`;
await new Promise((resolve) => setTimeout(resolve, 2000));
const rssIdleMiB = server.rssMiB();
const sampler = rssSampler(server.rssMiB);
let messaging: Awaited<ReturnType<typeof messagingScenarios>>;
let schedules: Awaited<ReturnType<typeof scheduleScenario>>;
let contactImport: Awaited<ReturnType<typeof contactImportScenario>>;
let whaticketImport: Awaited<ReturnType<typeof whaticketImportScenario>>;
let campaigns: Awaited<ReturnType<typeof campaignScenario>>;
let small: ListResult[];
let nginx: Awaited<ReturnType<typeof nginxScenario>>;
let large: ListResult[];
let generated: { small: object; large: object };
let rssAfterLoadMiB: number;
try {
  const nginxOptions = {
    requests: Number(values['nginx-requests']),
    concurrency: Number(values['nginx-concurrency']),
  };
  if (values.only === 'schedules') {
    await finishOnly(await scheduleScenario(server, { schedules: Number(values.schedules) }));
  }
  if (values.only === 'nginx') {
    const data = await generate(server.pool, scale, 'large');
    await finishOnly(await nginxScenario(server, data, nginxOptions));
  }
  if (values.only === 'lists') {
    const data = await generate(server.pool, scale, 'large');
    const rows = await listScenarios(server, data, { requests, warmup: 20 });
    await finishOnly({ scale, generatedSeconds: data.seconds, rows });
  }
  const campaignOptions = {
    recipients: Math.max(1, Math.round(Number(values['campaign-recipients']) * scale)),
    seconds: Number(values['campaign-seconds']),
  };
  if (values.only === 'campaigns') {
    const figures = await campaignScenario(server, campaignOptions);
    console.log(`\n| benchmark | figure | target | verdict |\n| --- | --- | --- | --- |`);
    for (const row of campaignRows(figures)) console.log(row);
    await finishOnly(figures);
  }
  const whaticketOptions = () => {
    const dialect = values['whaticket-dialect'] === 'mysql' ? 'mysql' : 'postgres';
    return {
      messages: Number(values['whaticket-messages']),
      dialect,
      serverUrl:
        dialect === 'mysql'
          ? (process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/')
          : server.adminUrl,
      adminUrl: server.adminUrl,
      batchSize: 2000,
    } as const;
  };
  if (values.only === 'whaticket-import') {
    const figures = await whaticketImportScenario(whaticketOptions());
    console.log(`\n| benchmark | figure | target | verdict |\n| --- | --- | --- | --- |`);
    console.log(whaticketRow(figures));
    await finishOnly(figures);
  }
  if (values.only === 'contact-import') {
    await finishOnly(await contactImportScenario(server, { rows: Number(values['import-rows']) }));
  }
  messaging = await messagingScenarios(server, {
    messages: Number(values.messages),
    rounds: Number(values.rounds),
    contacts: Number(values.contacts),
    concurrency: Number(values.concurrency),
    sends: Number(values.sends),
    agents: Number(values.agents),
    rate: Number(values.rate),
    seconds: Number(values.seconds),
  });
  if (values.only === 'messaging') {
    await finishOnly({ ...messaging, rssPeakMiB: Math.round(sampler.peak()) });
  }
  schedules = await scheduleScenario(server, { schedules: Number(values.schedules) });
  contactImport = await contactImportScenario(server, { rows: Number(values['import-rows']) });
  whaticketImport = await whaticketImportScenario(whaticketOptions());
  campaigns = await campaignScenario(server, campaignOptions);
  const smallData = await generate(server.pool, scale / 100, 'small');
  small = await listScenarios(server, smallData, { requests, warmup: 20 });
  const largeData = await generate(server.pool, scale, 'large');
  large = await listScenarios(server, largeData, { requests, warmup: 20 });
  nginx = await nginxScenario(server, largeData, nginxOptions);
  generated = {
    small: { scale: scale / 100, seconds: smallData.seconds, ...smallData.counts },
    large: { scale, seconds: largeData.seconds, ...largeData.counts, steps: largeData.steps },
  };
  rssAfterLoadMiB = server.rssMiB();
} catch (error) {
  console.error(server.output());
  throw error;
} finally {
  sampler.stop();
  await server.stop();
}
const web = initialJavaScript(!values['skip-web-build']);
const loadAtEnd = load();

const mib = (value: number) => Math.round(value);
const result = {
  at: new Date().toISOString(),
  machine: { ...machine(), postgres, loadAverage1m: { start: loadAtStart, end: loadAtEnd } },
  targets: TARGETS,
  generated,
  ...messaging,
  schedules,
  contactImport,
  whaticketImport,
  campaigns,
  lists: large.map((row, index) => ({ ...row, atOnePercent: small[index] })),
  nginx,
  serverMemory: {
    process: 'the server alone (node --import tsx apps/server/src/main.ts), RSS',
    idleMiB: mib(rssIdleMiB),
    peakUnderLoadMiB: mib(sampler.peak()),
    afterLoadMiB: mib(rssAfterLoadMiB),
  },
  webInitialJavaScript: web,
};

const { inbound, outbound, realtime } = messaging;
const listRows = large.map((row, index) => {
  const base = small[index]!;
  const growth = row.p95 / Math.max(base.p95, 0.01);
  const figures = `| ${row.name} | ${row.p50} / ${row.p95} / ${row.p99} ms | ${row.requestsPerSecond} | ${base.p95} ms | ${Math.round(growth * 100) / 100}x | ${row.rows} |`;
  // The dashboard sums the period's tickets: it grows with them by design (no growth target).
  if (row.name.startsWith('dashboard')) {
    return `${figures} p95 < ${TARGETS.dashboardP95Ms} ms | ${verdict(row.p95 < TARGETS.dashboardP95Ms)} |`;
  }
  const search = row.name.startsWith('search');
  const target = search ? TARGETS.searchP95Ms : TARGETS.listP95Ms;
  return `${figures} p95 < ${target} ms, <= ${TARGETS.growth}x | ${verdict(row.p95 < target && growth <= TARGETS.growth)} |`;
});
function nginxRow() {
  if ('skipped' in nginx) return `| through nginx | ${nginx.skipped} | reported | |`;
  const at = (r: { requestsPerSecond: number; p99: number; failed: number }) =>
    `${r.requestsPerSecond} req/s, p99 ${r.p99} ms${r.failed ? `, ${r.failed} failed` : ''}`;
  return `| GET ${nginx.path}, ${nginx.requests} requests ${nginx.concurrency} at a time: straight to one instance / through nginx to one / through nginx to two (same PostgreSQL, same 2 cores) | ${at(nginx.direct)} / ${at(nginx.oneInstance)} / ${at(nginx.twoInstances)} | reported | |`;
}
const m = machine();
const markdown = [
  '# Benchmark results',
  '',
  `${result.at} on ${m.cpus} cores (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}; 1-minute load average ${loadAtStart} at the start and ${loadAtEnd} at the end (the machine is shared with other work). The server runs as a process of its own (\`node --import tsx apps/server/src/main.ts\`, NODE_ENV=production) on 127.0.0.1 with ${postgres} on the same machine; every call goes over HTTP or socket.io. Data: ${JSON.stringify(generated)}`,
  '',
  '| benchmark | figure | target | verdict |',
  '| --- | --- | --- | --- |',
  `| inbound throughput: Cloud API webhooks over HTTP, signed as Meta sends them (${inbound.contacts} phones, ${inbound.rounds} rounds of ${inbound.messages} messages, ${inbound.concurrency} at a time) -> stored -> admin socket; the median round (rounds: ${inbound.roundsPerSecond.join(', ')}) | ${inbound.messagesPerSecond} msg/s (${inbound.delivered} of ${inbound.expected} delivered; CPU per message: server ${inbound.cpuMsPerMessage.server} ms, PostgreSQL ${inbound.cpuMsPerMessage.postgres} ms) | >= ${TARGETS.inboundMessagesPerSecond} msg/s | ${verdict(inbound.messagesPerSecond >= TARGETS.inboundMessagesPerSecond && inbound.delivered === inbound.expected)} |`,
  `| inbound -> admin socket latency p50 / p95 / p99, every message of every round | ${inbound.latencyMs.p50} / ${inbound.latencyMs.p95} / ${inbound.latencyMs.p99} ms | p99 < ${TARGETS.inboundP99Ms} ms | ${verdict(inbound.latencyMs.p99 < TARGETS.inboundP99Ms)} |`,
  `| POST /messages/{ticketId} on the simulator connection, one at a time: p50 / p95 / p99, req/s | ${outbound.p50} / ${outbound.p95} / ${outbound.p99} ms, ${outbound.requestsPerSecond} req/s | reported | |`,
  `| realtime: ${realtime.messages} inbound messages at ${realtime.ratePerSecond}/s to ${realtime.sockets} agent sockets of one company: p50 / p95 / p99 / max from the webhook's send to each authorised socket | ${realtime.latencyMs.p50} / ${realtime.latencyMs.p95} / ${realtime.latencyMs.p99} / ${realtime.latencyMs.max} ms (${realtime.deliveries} of ${realtime.expectedDeliveries} deliveries${refusedText(realtime.webhooksRefused)}) | p99 < ${TARGETS.inboundP99Ms} ms, every delivery | ${verdict(realtime.latencyMs.p99 < TARGETS.inboundP99Ms && realtime.deliveries === realtime.expectedDeliveries)} |`,
  `| scheduled messages: ${schedules.schedules} due at the same instant, created through POST /schedules (${schedules.creationSeconds} s${schedules.createdLate ? ', past their time: timed from the last' : ''}), each sent through its job on the simulator connection: half / all recorded sent | ${schedules.halfSentSeconds ?? '-'} s / ${schedules.allSentSeconds} s, ${schedules.perSecond}/s (${schedules.sent} sent, ${schedules.errors} errors) | reported, every one sent | ${verdict(schedules.sent === schedules.schedules && schedules.errors === 0)} |`,
  nginxRow(),
  `| contact list import: a ${contactImport.rows}-row sheet (${contactImport.fileMiB} MiB) through POST /contact-lists/:id/upload | ${contactImport.seconds} s, ${contactImport.rowsPerSecond} rows/s (${contactImport.stored} stored), server RSS ${contactImport.rssBeforeMiB} -> peak ${contactImport.rssPeakMiB} MiB | reported, every row stored | ${verdict(contactImport.stored === contactImport.imported && contactImport.imported === contactImport.rows)} |`,
  whaticketRow(whaticketImport),
  ...campaignRows(campaigns),
  `| server RSS: idle after boot / peak under the load above and the lists / after | ${result.serverMemory.idleMiB} / ${result.serverMemory.peakUnderLoadMiB} / ${result.serverMemory.afterLoadMiB} MiB | reported | |`,
  `| web app initial JavaScript (entry and its static imports, gzipped; screens are code-split) | ${web.gzipKB} KB in ${web.files.length} files | < ${TARGETS.initialJavaScriptGzipKB} KB | ${verdict(web.gzipKB < TARGETS.initialJavaScriptGzipKB)} |`,
  '',
  `| list (scale ${scale}) | p50 / p95 / p99 | req/s | p95 at 1% | growth | rows | target | verdict |`,
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...listRows,
  '',
  'Plan shape and query count are asserted by tests, not timed here: `apps/server/test/list-plans.test.ts` runs EXPLAIN on every list query (no sequential scan of tickets or messages) and counts the statements of each list call (a fixed number, none per row).',
  '',
].join('\n');

mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(RESULTS, 'latest.md'), markdown);
console.log(`\n${markdown}`);
process.exit(0);
