import { NGINX_BINARY, startNginx } from '../../../apps/server/test/nginx-front';
import type { BenchServer } from '../environment';
import type { Generated } from '../generate';
import { round, summarise } from '../stats';
import { login } from './lists';

export interface ThroughputResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
}

const PATH = '/tickets?status=open&showAll=true&pageNumber=1';

/**
 * The open-tickets list under `concurrency` callers at once: straight to the server, through
 * nginx in front of it, and through nginx in front of two instances on the same database. On a
 * 2-core machine the second instance competes with the first (and PostgreSQL, and the callers)
 * for the same cores: what it adds is measured, not assumed.
 */
export async function nginxScenario(
  server: BenchServer,
  data: Generated,
  options: { requests: number; concurrency: number },
) {
  if (!NGINX_BINARY) return { skipped: 'nginx is not installed on this machine' } as const;
  const token = await login(server, data.adminEmail);
  const measure = (base: string) => throughput(base, token, options);
  const direct = await measure(server.url);
  const front = await startNginx([server.port]);
  const second = await server.another();
  try {
    const oneInstance = await measure(front.url);
    await front.upstreams([server.port, second.port]);
    const twoInstances = await measure(front.url);
    return { path: PATH, ...options, direct, oneInstance, twoInstances };
  } finally {
    await front.stop();
    await second.stop();
  }
}

async function throughput(
  base: string,
  token: string,
  options: { requests: number; concurrency: number },
): Promise<ThroughputResult> {
  const call = async () => {
    const at = performance.now();
    const response = await fetch(`${base}${PATH}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return { ok: response.ok, ms: performance.now() - at };
  };
  for (let i = 0; i < 50; i++) await call();
  const samples: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.requests) {
        next += 1;
        const { ok, ms } = await call();
        if (ok) samples.push(ms);
        else failed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const summary = summarise(samples);
  return {
    requestsPerSecond: round(options.requests / seconds, 1),
    p50: round(summary.p50),
    p99: round(summary.p99),
    failed,
  };
}
