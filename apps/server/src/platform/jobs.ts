import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { JOBS_SCHEMA } from '../db/migrate';
import type { Metrics } from './metrics';

export interface JobDefinition<T> {
  /**
   * 'short' keeps at most one waiting job per singleton key, so work asked for again before it
   * ran is done once; 'standard' keeps every job.
   */
  policy?: 'standard' | 'short';
  /** Tries after the first failure, each later than the last (pg-boss's backoff). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long one run may take before it is taken as failed and tried again. */
  expireInSeconds?: number;
  /** Jobs of this name one instance runs at a time (each its own pg-boss worker). */
  concurrency?: number;
  handler: (data: T, run: JobRun) => Promise<void>;
}

/** Which try of its job a handler is running. */
export interface JobRun {
  /** 0 on the first try, then the retries so far. */
  retryCount: number;
  /** No retry follows this one: what is still failing after it is given up. */
  final: boolean;
}

/** The longest delay a Node timer takes. */
const MAX_TIMER_MS = 2_147_483_647 - 100;

export interface SendOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** With the 'short' policy, one waiting job per key. */
  singletonKey?: string;
}

/**
 * The job engine: pg-boss on the application's PostgreSQL (its pool, no connections of its own),
 * so work survives a restart and each job runs once whichever instance picks it. Modules define
 * their jobs before `start()`; a job sent from this instance wakes this instance's worker at
 * once (or when its delay is over) instead of waiting for the next poll.
 */
export class JobEngine {
  readonly #boss: PgBoss;
  readonly #definitions = new Map<string, JobDefinition<never>>();
  readonly #schedules: { name: string; cron: string }[] = [];
  readonly #workers = new Map<string, string[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #metrics?: Metrics;
  #started = false;
  readonly #work: boolean;
  /** Runs in progress on this instance (a drain waits for them). */
  #running = 0;

  constructor(
    pool: pg.Pool,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    options: {
      pollingIntervalSeconds?: number;
      /** False on an instance without the jobs role: it sends jobs and never runs them. */
      work?: boolean;
      metrics?: Metrics;
    } = {},
  ) {
    this.#work = options.work ?? true;
    this.#metrics = options.metrics;
    // Bound once: the engine's polling is its own traffic, not the requests' (tests that count
    // a request's statements wrap the pool's `query` while it runs).
    const query = pool.query.bind(pool) as (
      text: string,
      values: unknown[],
    ) => Promise<pg.QueryResult>;
    this.#boss = new PgBoss({
      db: { executeSql: (text, values) => query(text, values) },
      schema: JOBS_SCHEMA,
      // The schema is installed by the migrations; a newer pg-boss migrates its own tables.
      migrate: true,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      // Maintenance and cron ticks belong to the instances that run jobs.
      supervise: this.#work,
      schedule: this.#work,
    } as PgBoss.ConstructorOptions);
    this.#boss.on('error', (error) => this.log.error({ err: error }, 'job engine error'));
  }

  define<T>(name: string, definition: JobDefinition<T>): void {
    if (this.#started) throw new Error(`job ${name} defined after the engine started`);
    this.#definitions.set(name, definition as JobDefinition<never>);
  }

  /** Runs `name` on a cron schedule (UTC), once per tick across every instance. */
  every(name: string, cron: string): void {
    this.#schedules.push({ name, cron });
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#boss.start();
    for (const [name, definition] of this.#definitions) {
      await this.#boss.createQueue(name, {
        name,
        policy: definition.policy ?? 'standard',
        retryLimit: definition.retryLimit ?? 3,
        retryDelay: definition.retryDelaySeconds ?? 5,
        retryBackoff: true,
        expireInSeconds: definition.expireInSeconds ?? 120,
      });
      if (!this.#work) continue;
      const work = async () => {
        let id = '';
        id = await this.#boss.work<unknown>(name, { includeMetadata: true }, async (jobs) => {
          try {
            for (const job of jobs) {
              this.#running += 1;
              try {
                // A cron tick's job carries no data (null): handlers get an empty object.
                await definition.handler((job.data ?? {}) as never, {
                  retryCount: job.retryCount,
                  final: job.retryCount >= job.retryLimit,
                });
              } catch (error) {
                // pg-boss keeps the job for its retries; the reason is in the log.
                this.log.error({ err: error, job: name }, 'job failed');
                this.#metrics?.jobFailed(name);
                throw error;
              } finally {
                this.#running -= 1;
              }
            }
          } finally {
            // pg-boss waits its polling interval after every fetch, even one that found work:
            // a worker that just ran a job looks for the next at once (jobs due together are
            // run back to back, not one per interval).
            this.#boss.notifyWorker(id);
          }
        });
        return id;
      };
      const ids: string[] = [];
      for (let n = 0; n < (definition.concurrency ?? 1); n++) ids.push(await work());
      this.#workers.set(name, ids);
    }
    if (this.#work) {
      for (const { name, cron } of this.#schedules) await this.#boss.schedule(name, cron);
    }
  }

  /** Jobs waiting to run (created or retrying), by queue. */
  async depths(): Promise<Record<string, number>> {
    if (!this.#started) return {};
    const entries = await Promise.all(
      [...this.#definitions.keys()].map(
        async (name) => [name, await this.#boss.getQueueSize(name)] as const,
      ),
    );
    return Object.fromEntries(entries);
  }

  /** Job runs in progress on this instance. */
  get running(): number {
    return this.#running;
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<void> {
    if (!this.#definitions.has(name)) throw new Error(`unknown job ${name}`);
    await this.#boss.send(name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.delayMs ? { startAfter: new Date(Date.now() + options.delayMs) } : {}),
    });
    this.#wake(name, options.delayMs ?? 0);
  }

  #wake(name: string, afterMs: number) {
    const workers = this.#workers.get(name);
    if (!workers) return;
    const notify = () => {
      for (const worker of workers) this.#boss.notifyWorker(worker);
    };
    if (afterMs <= 0) {
      notify();
      return;
    }
    // A timer cannot wait that long (Node's limit is 2^31 - 1 ms, about 24 days): the workers'
    // polling finds the job when its time comes.
    if (afterMs > MAX_TIMER_MS) return;
    // A little after the job's start time: pg-boss compares it with the database's clock.
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      notify();
    }, afterMs + 50);
    timer.unref();
    this.#timers.add(timer);
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (!this.#started) return;
    this.#started = false;
    await this.#boss.stop({ graceful: true, timeout: 5_000, close: false, wait: true });
  }
}
