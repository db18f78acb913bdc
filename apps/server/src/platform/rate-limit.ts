/**
 * Rate limits. A limit on a route, counted per client address (sign-in attempts a minute, sign-ups
 * an hour), runs through @fastify/rate-limit, in Redis when REDIS_URL is set so every instance
 * counts the same hits. The sign-in lock per e-mail stays here, hand-written: it must count only
 * the failures of a sign-in and be cleared by a success, and the plugin can do neither (it counts
 * every request before the route answers, and offers no way to clear a key).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, onRouteHookHandler } from 'fastify';
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

/** The answer to a client past a limit: Retry-After says how many seconds to wait (at least 1). */
const tooManyRequests = (waitMs: number) =>
  new AppError(
    'ERR_TOO_MANY_REQUESTS',
    429,
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
  );

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
    if (waits.length > 0) throw tooManyRequests(Math.max(...waits));
  }

  reset(key: string): Promise<void> {
    return this.store.reset(key);
  }
}

/** A limit on one route, counted per client address. */
export interface RouteLimit {
  /** `METHOD /path` as the route is registered. */
  route: string;
  /** Names the counter (`login:ip`), so two routes never share one. */
  name: string;
  max: number;
  windowMs: number;
}

/**
 * Registers @fastify/rate-limit and puts each limit on its route, after validation (a refused
 * body counts nothing) and before the handler. Must run before the routes are registered; a
 * limit whose route never appears fails start-up, so a renamed route cannot lose its limit.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  { redis, limits }: { redis?: Redis; limits: RouteLimit[] },
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: 'rl:',
    // Only Retry-After is sent, with the error below; the counts stay the server's business.
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': false,
    },
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_req, context) => tooManyRequests(context.ttl),
  });
  const pending = new Map(limits.map((limit) => [limit.route, limit]));
  const attach: onRouteHookHandler = (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const key = `${method} ${route.url}`;
      const limit = pending.get(key);
      if (!limit) continue;
      pending.delete(key);
      const handler = app.rateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        keyGenerator: (req) => `${limit.name}:${req.ip}`,
        // The in-memory counters keep this many addresses before forgetting the oldest.
        cache: 100_000,
      });
      const existing = route.preHandler;
      route.preHandler = [
        ...(existing ? (Array.isArray(existing) ? existing : [existing]) : []),
        handler,
      ];
    }
  };
  app.addHook('onRoute', attach);
  app.addHook('onReady', async () => {
    if (pending.size > 0) {
      throw new Error(`rate limits on routes that do not exist: ${[...pending.keys()].join(', ')}`);
    }
  });
}
