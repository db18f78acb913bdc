import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors';
import { registerRateLimits } from './rate-limit';

/** A bare app with two limited routes and one that is not, answering errors as the API does. */
async function limitedApp(limits = [{ route: 'POST /limited', max: 2, windowMs: 60_000 }]) {
  const app = Fastify();
  registerErrorHandling(app);
  await registerRateLimits(app, {
    limits: limits.map((limit, index) => ({ ...limit, name: `probe${index}:ip` })),
  });
  app.post('/limited', async () => ({ ok: true }));
  app.post('/other', async () => ({ ok: true }));
  return app;
}

describe('route limits per address', () => {
  it('answers 429 with Retry-After past the limit, per address and per route only', async () => {
    const app = await limitedApp();
    try {
      const post = (url: string, remoteAddress: string) =>
        app.inject({ method: 'POST', url, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post('/limited', '10.7.0.1')).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await post('/limited', '10.7.0.1');
      expect(refused.json()).toEqual({ error: 'ERR_TOO_MANY_REQUESTS' });
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      // The counts themselves are not told.
      expect(Object.keys(refused.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
      expect((await post('/limited', '10.7.0.2')).statusCode).toBe(200);
      expect((await post('/other', '10.7.0.1')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with a limit on a route that does not exist', async () => {
    const app = await limitedApp([
      { route: 'POST /limited', max: 2, windowMs: 60_000 },
      { route: 'POST /renamed', max: 2, windowMs: 60_000 },
    ]);
    await expect(app.ready()).rejects.toThrow(/POST \/renamed/);
    await app.close().catch(() => {});
  });
});
