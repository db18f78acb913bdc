import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, startBenchServer } from './environment';
import { inboundScenario } from './scenarios/inbound';

/**
 * `npm run bench` - runs the benchmarks against a real server on 127.0.0.1, prints a table and
 * writes bench/results/latest.json and latest.md. Targets are reported, never asserted.
 */
const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '5000' },
    contacts: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '64' },
  },
});

const RESULTS = join(import.meta.dirname, '..', 'results');
const TARGETS = { inboundMessagesPerSecond: 1000, inboundP99Ms: 100 };

const server = await startBenchServer();
const rssIdleMiB = process.memoryUsage().rss / 2 ** 20;
let inbound: Awaited<ReturnType<typeof inboundScenario>>;
try {
  inbound = await inboundScenario(server, {
    messages: Number(values.messages),
    contacts: Number(values.contacts),
    concurrency: Number(values.concurrency),
  });
} finally {
  await server.stop();
}
const rssLoadMiB = process.memoryUsage().rss / 2 ** 20;

const result = {
  at: new Date().toISOString(),
  machine: machine(),
  targets: TARGETS,
  inbound,
  memory: { rssIdleMiB: Math.round(rssIdleMiB), rssAfterLoadMiB: Math.round(rssLoadMiB) },
};

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const table = [
  '| benchmark | figure | target | verdict |',
  '| --- | --- | --- | --- |',
  `| inbound throughput (${inbound.contacts} contacts, ${inbound.messages} messages) | ${inbound.messagesPerSecond} msg/s | >= ${TARGETS.inboundMessagesPerSecond} msg/s | ${verdict(inbound.messagesPerSecond >= TARGETS.inboundMessagesPerSecond)} |`,
  `| inbound -> agent socket latency p50 / p95 / p99 | ${inbound.latencyMs.p50} / ${inbound.latencyMs.p95} / ${inbound.latencyMs.p99} ms | p99 < ${TARGETS.inboundP99Ms} ms | ${verdict(inbound.latencyMs.p99 < TARGETS.inboundP99Ms)} |`,
  `| server process RSS idle / after load | ${result.memory.rssIdleMiB} / ${result.memory.rssAfterLoadMiB} MiB | | |`,
].join('\n');
const markdown = `# Benchmark results\n\n${result.at} on ${result.machine.cpus} cores (${result.machine.cpuModel}), ${result.machine.memoryGiB} GiB, Node ${result.machine.node}\n\n${table}\n`;

mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(RESULTS, 'latest.md'), markdown);
console.log(`\n${markdown}`);
process.exit(0);
