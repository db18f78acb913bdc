import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, startBenchServer } from './environment';
import { generate } from './generate';
import { inboundScenario } from './scenarios/inbound';
import { type ListResult, listScenarios } from './scenarios/lists';

/**
 * `npm run bench [-- --scale N]` - seeds data with set-based SQL, runs the benchmarks against a
 * real server on 127.0.0.1, prints a table and writes bench/results/latest.json and latest.md.
 * Targets are reported, never asserted.
 */
const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    messages: { type: 'string', default: '5000' },
    contacts: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '64' },
    requests: { type: 'string', default: '200' },
  },
});

const RESULTS = join(import.meta.dirname, '..', 'results');
const TARGETS = {
  inboundMessagesPerSecond: 1000,
  inboundP99Ms: 100,
  listP95Ms: 20,
  searchP95Ms: 60,
  growth: 2,
};
const scale = Number(values.scale);
const requests = Number(values.requests);

const server = await startBenchServer();
const rssIdleMiB = process.memoryUsage().rss / 2 ** 20;
let inbound: Awaited<ReturnType<typeof inboundScenario>>;
let small: ListResult[];
let large: ListResult[];
let generated: { small: object; large: object };
try {
  inbound = await inboundScenario(server, {
    messages: Number(values.messages),
    contacts: Number(values.contacts),
    concurrency: Number(values.concurrency),
  });
  const smallData = await generate(server.database.pool, scale / 100, 'small');
  small = await listScenarios(server, smallData, { requests, warmup: 20 });
  const largeData = await generate(server.database.pool, scale, 'large');
  large = await listScenarios(server, largeData, { requests, warmup: 20 });
  generated = {
    small: { scale: scale / 100, seconds: smallData.seconds, ...smallData.counts },
    large: { scale, seconds: largeData.seconds, ...largeData.counts },
  };
} finally {
  await server.stop();
}
const rssLoadMiB = process.memoryUsage().rss / 2 ** 20;

const result = {
  at: new Date().toISOString(),
  machine: machine(),
  targets: TARGETS,
  generated,
  inbound,
  lists: large.map((row, index) => ({ ...row, atOnePercent: small[index] })),
  memory: { rssIdleMiB: Math.round(rssIdleMiB), rssAfterLoadMiB: Math.round(rssLoadMiB) },
};

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const listRows = large.map((row, index) => {
  const base = small[index]!;
  const search = row.name.startsWith('search');
  const target = search ? TARGETS.searchP95Ms : TARGETS.listP95Ms;
  const growth = row.p95 / Math.max(base.p95, 0.01);
  return `| ${row.name} | ${row.p50} / ${row.p95} / ${row.p99} ms | ${row.requestsPerSecond} | ${base.p95} ms | ${row.rows} | p95 < ${target} ms, <= ${TARGETS.growth}x | ${verdict(row.p95 < target && growth <= TARGETS.growth)} |`;
});
const markdown = [
  '# Benchmark results',
  '',
  `${result.at} on ${machine().cpus} cores (${machine().cpuModel}), ${machine().memoryGiB} GiB, Node ${machine().node}. Data: ${JSON.stringify(generated)}`,
  '',
  '| benchmark | figure | target | verdict |',
  '| --- | --- | --- | --- |',
  `| inbound throughput (${inbound.contacts} contacts, ${inbound.messages} messages) | ${inbound.messagesPerSecond} msg/s | >= ${TARGETS.inboundMessagesPerSecond} msg/s | ${verdict(inbound.messagesPerSecond >= TARGETS.inboundMessagesPerSecond)} |`,
  `| inbound -> agent socket latency p50 / p95 / p99 | ${inbound.latencyMs.p50} / ${inbound.latencyMs.p95} / ${inbound.latencyMs.p99} ms | p99 < ${TARGETS.inboundP99Ms} ms | ${verdict(inbound.latencyMs.p99 < TARGETS.inboundP99Ms)} |`,
  `| bench process RSS (server in-process) idle / after load | ${Math.round(rssIdleMiB)} / ${Math.round(rssLoadMiB)} MiB | | |`,
  '',
  `| list (scale ${scale}) | p50 / p95 / p99 | req/s | p95 at 1% | rows | target | verdict |`,
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...listRows,
  '',
].join('\n');

mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(RESULTS, 'latest.md'), markdown);
console.log(`\n${markdown}`);
process.exit(0);
