import { defineContract } from '@atendi/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../../test/harness';
import { AppError } from './errors';
import { serveOn } from './routes';

const probes = defineContract('probe', {
  boom: { method: 'GET', path: '/boom', access: 'public', responses: { 200: null } },
  throws: { method: 'GET', path: '/throws', access: 'public', responses: { 200: null } },
  conflict: { method: 'GET', path: '/conflict', access: 'public', responses: { 200: null } },
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('error answers', () => {
  it('answers unknown routes with 404 ERR_NOT_FOUND', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/no/such/route' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NOT_FOUND' });
  });

  it('never shows a stack, SQL or message on a 5xx', async () => {
    const { buildApp } = await import('../app');
    const app = await buildApp({ config: t.app.platform.config, database: t.database });
    const serve = serveOn(app);
    serve(probes.boom, async () => {
      await t.database.pool.query('select * from no_such_table');
    });
    serve(probes.throws, async () => {
      throw new Error('secret detail at /srv/app.ts:12');
    });
    for (const url of ['/boom', '/throws']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      // Only the request's id, which names its log lines.
      expect(response.json()).toEqual({
        error: 'ERR_INTERNAL',
        requestId: response.headers['x-request-id'],
      });
      expect(response.body).not.toMatch(/no_such_table|secret detail|at |\.ts/);
    }
    await app.close();
  });

  it('turns an AppError into its code and status, and refuses a route without a contract', async () => {
    const { buildApp } = await import('../app');
    const app = await buildApp({ config: t.app.platform.config, database: t.database });
    serveOn(app)(probes.conflict, async () => {
      throw new AppError('ERR_DUPLICATED_CONTACT', 409);
    });
    expect(() =>
      app.get('/unguarded', { schema: { querystring: z.object({}) } }, async () => 'open'),
    ).toThrow(/does not come from a route contract/);
    // naming an access is not enough: the web could not call it through a contract
    expect(() =>
      app.get('/uncontracted', { config: { access: 'public' } }, async () => 'open'),
    ).toThrow(/does not come from a route contract/);
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    await app.close();
  });
});

describe('GET /docs', () => {
  it('serves the OpenAPI document generated from the schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('6.0.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/auth/login', '/users', '/users/{id}', '/companies/cadastro']),
    );
    expect(
      document.paths['/users'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(expect.arrayContaining(['name', 'email', 'password']));
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });

  it('answers GET /version publicly', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/version' });
    expect(response.json()).toEqual({ version: '6.0.0' });
  });
});
