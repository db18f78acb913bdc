import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import { TokenService } from '../../src/platform/auth/tokens';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../harness';
import { pathFor, seedWorld, type World } from './world';

/**
 * Every route not on the public list refuses a caller without a valid session: no token, a token
 * signed by another secret, a token of a deleted user, and an expired token. The expired token is
 * refused with 403 ERR_SESSION_EXPIRED, the answer on which the spec's clients refresh once and
 * retry (a 401 would sign them out); every other case is 401.
 */

/** The routes anyone may call; a route missing here and not guarded fails the sweep. */
const PUBLIC_ROUTES = new Set([
  'GET /version',
  'GET /health',
  'GET /ready',
  'GET /metrics',
  'GET /plans/list',
  'GET /plans/register',
  // The platform's sign-up switches only (viewregister, allowregister, trial).
  'GET /settings/:key',
  'POST /companies/cadastro',
  'POST /auth/login',
  'POST /forgetpassword',
  'POST /forgetpassword/:email',
  'POST /resetpasswords',
  'POST /resetpasswords/:email/:token/:newPassword',
  'POST /auth/refresh_token',
  'DELETE /auth/logout',
  'GET /media/:companyId/:file',
  'GET /webhooks/cloud-api/:connectionId',
  'POST /webhooks/cloud-api/:connectionId',
  // The connection's external-API token decides, not a session.
  'POST /api/messages/send',
  // Asaas calls it: its `asaas-access-token` decides, compared in constant time.
  'POST /subscription/webhook',
]);

let t: TestServer;
let world: World;
let guarded: CatalogRoute[];
const tokens: Record<'forged' | 'deletedUser' | 'expired', string> = {
  forged: '',
  deletedUser: '',
  expired: '',
};

beforeAll(async () => {
  t = await startTestServer();
  world = await seedWorld(t);
  guarded = t.app.routeCatalog.filter((route) => route.access !== 'public');

  const claims = decodeJwt(world.a.admin.token) as { sub: string; cid: number; sid: string };
  tokens.forged = await new TokenService('another-secret-0123456789-0123456789', 900).sign(claims);
  tokens.expired = await new TokenService(TEST_JWT_SECRET, -60).sign(claims);
  const doomed = await t.make.user(world.a.companyId);
  tokens.deletedUser = (await t.login(doomed.email)).token;
  const removed = await t.as(world.a.admin.token).delete(`/users/${doomed.id}`);
  expect(removed.statusCode).toBe(204);
});
afterAll(() => t.stop());

const call = (route: CatalogRoute, authorization?: string) =>
  t.app.inject({
    method: route.method as 'GET',
    url: pathFor(route, world.a, world),
    headers: authorization ? { authorization } : {},
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });

describe('authentication sweep over every registered route', () => {
  it('declares as public only the routes meant to be public', () => {
    const publicRoutes = t.app.routeCatalog
      .filter((route) => route.access === 'public')
      .map((route) => `${route.method} ${route.url}`);
    expect(publicRoutes.sort()).toEqual([...PUBLIC_ROUTES].sort());
    expect(guarded.length).toBeGreaterThan(60);
  });

  it('refuses every guarded route without a valid session', async () => {
    const before = await t.database.db.execute('select count(*) from tickets');
    const cases: [string, string | undefined, number][] = [
      ['no token', undefined, 401],
      ['not a bearer token', `Basic ${Buffer.from('a:b').toString('base64')}`, 401],
      ['garbage', 'Bearer not.a.jwt', 401],
      ['another secret', `Bearer ${tokens.forged}`, 401],
      ['deleted user', `Bearer ${tokens.deletedUser}`, 401],
      ['expired', `Bearer ${tokens.expired}`, 403],
    ];
    let count = 0;
    for (const route of guarded) {
      for (const [label, authorization, status] of cases) {
        const response = await call(route, authorization);
        const context = `${route.method} ${route.url} with ${label}: ${response.body.slice(0, 200)}`;
        expect(response.statusCode, context).toBe(status);
        expect(response.json(), context).toEqual({ error: 'ERR_SESSION_EXPIRED' });
        count += 1;
      }
    }
    const after = await t.database.db.execute('select count(*) from tickets');
    expect(after.rows).toEqual(before.rows);
    console.info(
      `authentication sweep: ${guarded.length} guarded routes x ${cases.length} callers = ${count} cases`,
    );
  });
});
