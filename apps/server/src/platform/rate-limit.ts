import type { Redis } from 'ioredis';
import { AppError } from './errors';

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and its count starts again. */
  resetInMs: number;
}

export interface RateLimitStore {
  /** Counts one hit in the window (which starts at the first hit and does not slide). */
  hit(key: string, windowMs: number): Promise<Hit>;
  reset(key: string): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number): Promise<Hit> {
    const now = Date.now();
    const window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.#windows.size > 100_000) this.#sweep(now);
      this.#windows.set(key, { count: 1, resetAt: now + windowMs });
      return { count: 1, resetInMs: windowMs };
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async reset(key: string): Promise<void> {
    this.#windows.delete(key);
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}

/** Shared counters, so several instances behind a load balancer enforce one limit. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number): Promise<Hit> {
    const redisKey = `rl:${key}`;
    const [[, count], , [, ttl]] = (await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs, 'NX')
      .pttl(redisKey)
      .exec()) as [[unknown, number], unknown, [unknown, number]];
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(`rl:${key}`);
  }
}

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /**
   * Throws ERR_TOO_MANY_REQUESTS when any of the limits is past its maximum, with Retry-After:
   * the seconds until every limit passed is open again (the client shows that wait).
   */
  async consume(...limits: Limit[]): Promise<void> {
    const hits = await Promise.all(
      limits.map((limit) => this.store.hit(limit.key, limit.windowMs)),
    );
    const waits = hits
      .filter((hit, index) => hit.count > limits[index]!.max)
      .map((hit) => hit.resetInMs);
    if (waits.length > 0) {
      const seconds = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
      throw new AppError('ERR_TOO_MANY_REQUESTS', 429, {}, { 'Retry-After': String(seconds) });
    }
  }

  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }
}
