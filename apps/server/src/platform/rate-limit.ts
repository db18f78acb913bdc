import type { Redis } from 'ioredis';
import { AppError } from './errors';

export interface RateLimitStore {
  /** Counts one hit in the window and answers the count so far. */
  hit(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number): Promise<number> {
    const now = Date.now();
    const window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.#windows.size > 100_000) this.#sweep(now);
      this.#windows.set(key, { count: 1, resetAt: now + windowMs });
      return 1;
    }
    window.count += 1;
    return window.count;
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

  async hit(key: string, windowMs: number): Promise<number> {
    const redisKey = `rl:${key}`;
    const [[, count]] = (await this.redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs, 'NX')
      .exec()) as [[unknown, number]];
    return count;
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

  /** Throws ERR_TOO_MANY_REQUESTS when any of the limits is past its maximum. */
  async consume(...limits: Limit[]): Promise<void> {
    const counts = await Promise.all(
      limits.map((limit) => this.store.hit(limit.key, limit.windowMs)),
    );
    if (counts.some((count, index) => count > limits[index]!.max)) {
      throw new AppError('ERR_TOO_MANY_REQUESTS', 429);
    }
  }

  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }
}
