import type { Redis } from 'ioredis';
import type pg from 'pg';
import { migrationsApplied } from '../db/migrate';

export interface Readiness {
  ready: boolean;
  database: boolean;
  migrations: boolean;
  /** Null when no Redis is configured. */
  redis: boolean | null;
  draining: boolean;
}

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_resolve, reject) =>
      setTimeout(() => reject(new Error('timed out')), ms).unref(),
    ),
  ]);

/**
 * What load balancers ask: whether this instance should get traffic. Ready when the database
 * answers, its migrations are all applied, Redis answers (when configured) and the instance is
 * not draining; draining is set once on SIGTERM and never cleared.
 */
export class Health {
  #draining = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly redis?: Redis,
  ) {}

  get draining(): boolean {
    return this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }

  async readiness(): Promise<Readiness> {
    const [database, migrations, redis] = await Promise.all([
      within(this.pool.query('select 1'), 2_000).then(
        () => true,
        () => false,
      ),
      within(migrationsApplied(this.pool), 2_000).catch(() => false),
      this.redis
        ? within(this.redis.ping(), 2_000).then(
            (answer) => answer === 'PONG',
            () => false,
          )
        : Promise.resolve(null),
    ]);
    const draining = this.#draining;
    return {
      ready: database && migrations && redis !== false && !draining,
      database,
      migrations,
      redis,
      draining,
    };
  }
}
