import client from 'prom-client';

/** A figure read when Prometheus scrapes: a number, or numbers by one label's value. */
export type Reading = () =>
  | number
  | Record<string, number>
  | Promise<number | Record<string, number>>;

/**
 * The instance's Prometheus figures (prom-client), on a registry of its own so several apps in
 * one process (the tests) never mix them. What is counted as it happens (requests, messages,
 * job failures) is counted here; what is a state (sockets, connection statuses, queue depth,
 * the database pool) is read from its owner at each scrape, so it cannot drift.
 */
export class Metrics {
  readonly registry = new client.Registry();
  readonly #requests: client.Histogram<'method' | 'route' | 'status'>;
  readonly #inbound: client.Counter<'provider' | 'result'>;
  readonly #outbound: client.Counter<'provider' | 'result'>;
  readonly #jobFailures: client.Counter<'queue'>;

  constructor() {
    const registers = [this.registry];
    // Process figures, event-loop lag among them (nodejs_eventloop_lag_*).
    client.collectDefaultMetrics({ register: this.registry, prefix: 'atendi_' });
    this.#requests = new client.Histogram({
      name: 'atendi_http_request_duration_seconds',
      help: 'HTTP requests by route (its pattern) and answer status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#inbound = new client.Counter({
      name: 'atendi_messages_inbound_total',
      help: 'Messages received from the networks by provider and result (stored, duplicate, ignored, failed)',
      labelNames: ['provider', 'result'],
      registers,
    });
    this.#outbound = new client.Counter({
      name: 'atendi_messages_outbound_total',
      help: 'Messages handed to the networks by provider and result (sent, failed)',
      labelNames: ['provider', 'result'],
      registers,
    });
    this.#jobFailures = new client.Counter({
      name: 'atendi_job_failures_total',
      help: 'Job runs that failed, by queue',
      labelNames: ['queue'],
      registers,
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe({ method, route, status: String(status) }, seconds);
  }

  inbound(provider: string, result: string): void {
    this.#inbound.inc({ provider, result });
  }

  outbound(provider: string, result: 'sent' | 'failed'): void {
    this.#outbound.inc({ provider, result });
  }

  jobFailed(queue: string): void {
    this.#jobFailures.inc({ queue });
  }

  /** A state read at each scrape; `label` names what the keys of a record reading are. */
  gauge(name: string, help: string, read: Reading, label?: string): void {
    new client.Gauge({
      name: `atendi_${name}`,
      help,
      labelNames: label ? [label] : [],
      registers: [this.registry],
      async collect() {
        const value = await read();
        if (typeof value === 'number') {
          this.set(value);
          return;
        }
        this.reset();
        for (const [key, count] of Object.entries(value)) this.set({ [label!]: key }, count);
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
