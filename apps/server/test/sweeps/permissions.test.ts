import {
  can,
  defineContract,
  PERMISSIONS,
  type PermissionName,
  PLAN_FLAGS,
  type PlanFlag,
  type Principal,
  type SessionUser,
} from '@atendi/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, buildApp } from '../../src/app';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import { forbidden } from '../../src/platform/errors';
import { serveOn } from '../../src/platform/routes';
import { startTestServer, type TestServer } from '../harness';
import { pathFor, seedWorld, snapshot, type Tenant, takesId, type World } from './world';

/**
 * The authorisation sweep: one permission table (PERMISSIONS in @atendi/shared) drives the server.
 * Every registered route is called by an anonymous caller, and every guarded one by an agent, an
 * admin, the super user and an agent whose company's plan has every flag off. Each answer is
 * checked against `can()`:
 * - anonymous: a public route answers anything but 401; a guarded one 401 ERR_SESSION_EXPIRED.
 * - denied by the table: 403 ERR_NO_PERMISSION, and company A's rows stay as they were.
 * - allowed by the table: past the guard. Validation runs after the guard, so input the route's
 *   own schema rejects (found with `safeParse`) tells the two apart: an allowed caller gets 400
 *   ERR_VALIDATION where a denied one gets 403. A route with nothing to reject gets a real call
 *   on the caller's own company, which must answer neither 401 nor 403.
 */

/**
 * Public routes that answer an anonymous caller 401 by design, and why. Nothing else may: a 401
 * makes the spec's clients sign out.
 */
const PUBLIC_401: Record<string, string> = {
  'POST /auth/refresh_token':
    'without a refresh cookie the session is over: 401 ERR_SESSION_EXPIRED signs the client out',
};

type Flags = Partial<Record<PlanFlag, boolean>>;
const ALL_FLAGS: Flags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true]));
const NO_FLAGS: Flags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false]));

interface Caller {
  label: string;
  token: string;
  principal: Principal;
  /** The flags of the caller's company's plan. */
  plan: Flags;
  /** The caller's own seeded rows, for real calls on paths with ids. */
  own?: Tenant;
}

/** What is sent: a path, and a body or query when there is one. */
interface Input {
  what: string;
  path: string;
  payload?: unknown;
  query?: Record<string, string>;
}

interface Report {
  routes: number;
  guarded: number;
  cases: number;
  anonymous: number;
  denied: number;
  /** Allowed callers stopped by validation, that is past the guard. */
  rejected: number;
  /** Allowed callers on routes with nothing to reject: a real call. */
  realCalls: number;
  /** `METHOD /url | caller input -> status`: what the sweep saw. */
  answers: string[];
  /** Allowed calls the sweep could not make, and why; printed, so a gap is never silent. */
  skipped: string[];
  violations: string[];
}

interface Parser {
  safeParse(value: unknown): { success: boolean };
  shape?: Record<string, unknown>;
}

const parserOf = (route: CatalogRoute, part: 'body' | 'params' | 'querystring') => {
  const value = (route.schema as Record<string, unknown> | undefined)?.[part];
  return value && typeof (value as Parser).safeParse === 'function' ? (value as Parser) : undefined;
};

const rejects = (schema: Parser, value: unknown) => !schema.safeParse(value).success;

/** Values a numeric id, a uuid, an enum or a bounded number refuses; '' is no path segment. */
const BAD_VALUES = ['abc', '0', '-1'];

/** The path's parameter values by name, as `pathFor` filled them in. */
function paramsOf(route: CatalogRoute, path: string): Record<string, string> {
  const values = path.split('/');
  return Object.fromEntries(
    route.url
      .split('/')
      .map((segment, i) => [segment, values[i] ?? ''] as const)
      .filter(([segment]) => segment.startsWith(':'))
      .map(([segment, value]) => [segment.slice(1), decodeURIComponent(value)]),
  );
}

const withParam = (route: CatalogRoute, path: string, name: string, value: string) => {
  const values = path.split('/');
  return route.url
    .split('/')
    .map((segment, i) => (segment === `:${name}` ? encodeURIComponent(value) : values[i]))
    .join('/');
};

/**
 * Input the route's own validator refuses, or nothing when it has none that can fail: a JSON
 * array as the body, else one path parameter the params schema refuses, else a query value (or
 * an unknown query key, or no query at all) the querystring schema refuses.
 */
function rejectedInput(route: CatalogRoute, path: string): Input | undefined {
  const body = parserOf(route, 'body');
  if (body && rejects(body, [])) return { what: 'body []', path, payload: [] };

  const params = parserOf(route, 'params');
  if (params) {
    const valid = paramsOf(route, path);
    for (const name of Object.keys(valid)) {
      const bad = BAD_VALUES.find((value) => rejects(params, { ...valid, [name]: value }));
      if (bad !== undefined) {
        return { what: `:${name}=${bad}`, path: withParam(route, path, name, bad) };
      }
    }
  }

  const querystring = parserOf(route, 'querystring');
  if (querystring) {
    const candidates: Record<string, string>[] = [
      ...Object.keys(querystring.shape ?? {}).flatMap((key) =>
        [...BAD_VALUES, ''].map((value) => ({ [key]: value })),
      ),
      { notAFilter: '1' },
      {},
    ];
    const query = candidates.find((candidate) => rejects(querystring, candidate));
    if (query) return { what: `?${new URLSearchParams(query)}`, path, query };
  }
  return undefined;
}

/** The call a client would make with no particular input: `{}` as the body of a write. */
const plainInput = (route: CatalogRoute, path: string): Input => ({
  what: 'plain',
  path,
  ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
});

const allows = (caller: Caller, route: CatalogRoute) =>
  route.access !== 'public' && can(caller.principal, route.access, caller.plan);

/** The guard's answers carry nothing but their code. */
const isError = (body: unknown, code: string) =>
  JSON.stringify(body) === JSON.stringify({ error: code });

async function permissionSweep(
  t: TestServer,
  app: App,
  world: World,
  routes: CatalogRoute[],
  callers: Caller[],
): Promise<Report> {
  const report: Report = {
    routes: routes.length,
    guarded: routes.filter((route) => route.access !== 'public').length,
    cases: 0,
    anonymous: 0,
    denied: 0,
    rejected: 0,
    realCalls: 0,
    answers: [],
    skipped: [],
    violations: [],
  };

  const send = async (route: CatalogRoute, input: Input, who: string, token?: string) => {
    const response = await app.inject({
      method: route.method as 'GET',
      url: input.path,
      ...(input.query ? { query: input.query } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(input.payload === undefined ? {} : { payload: input.payload as object }),
    });
    report.cases += 1;
    const name = `${route.method} ${route.url}`;
    report.answers.push(`${name} | ${who} ${input.what} -> ${response.statusCode}`);
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = response.body.slice(0, 100);
    }
    const fail = (problem: string) =>
      report.violations.push(
        `${name} | ${who} ${input.what}: ${problem}, got ${response.statusCode} ${JSON.stringify(body)}`,
      );
    return { status: response.statusCode, body, fail };
  };

  // Anonymous callers and callers the table denies must change nothing: fingerprint A around
  // them. Their calls name A's rows, so a route that acted before the guard would show here.
  const before = await snapshot(t, world.a.companyId);
  for (const route of routes) {
    const path = pathFor(route, world.a, world);
    const input = rejectedInput(route, path) ?? plainInput(route, path);
    const answer = await send(route, input, 'anonymous');
    report.anonymous += 1;
    const name = `${route.method} ${route.url}`;
    if (route.access === 'public') {
      if (answer.status === 401 && !PUBLIC_401[name]) answer.fail('a public route answered 401');
    } else if (answer.status !== 401 || !isError(answer.body, 'ERR_SESSION_EXPIRED')) {
      answer.fail('expected 401 ERR_SESSION_EXPIRED');
    }
  }
  const guarded = routes.filter((route) => route.access !== 'public');
  for (const caller of callers) {
    for (const route of guarded.filter((route) => !allows(caller, route))) {
      const path = pathFor(route, world.a, world);
      const rejected = rejectedInput(route, path);
      for (const input of [plainInput(route, path), ...(rejected ? [rejected] : [])]) {
        const answer = await send(route, input, caller.label, caller.token);
        report.denied += 1;
        if (answer.status !== 403 || !isError(answer.body, 'ERR_NO_PERMISSION')) {
          answer.fail(`the table denies ${route.access}: expected 403 ERR_NO_PERMISSION`);
        }
      }
    }
  }
  const after = await snapshot(t, world.a.companyId);
  if (after !== before) {
    const changed = after.split('\n').filter((line) => !before.split('\n').includes(line));
    report.violations.push(
      `anonymous or denied calls changed company A's rows: ${changed.join(', ')}`,
    );
  }

  for (const caller of callers) {
    for (const route of guarded.filter((route) => allows(caller, route))) {
      const name = `${route.method} ${route.url}`;
      const rejected = rejectedInput(route, pathFor(route, caller.own ?? world.a, world));
      if (rejected) {
        const answer = await send(route, rejected, caller.label, caller.token);
        report.rejected += 1;
        if (
          answer.status !== 400 ||
          (answer.body as { error?: string }).error !== 'ERR_VALIDATION'
        ) {
          answer.fail(`the table allows ${route.access}: expected the validator's 400`);
        }
        continue;
      }
      const path = caller.own
        ? pathFor(route, caller.own, world)
        : takesId(route)
          ? undefined
          : route.url;
      if (path === undefined) {
        report.skipped.push(`${name} as ${caller.label}: no input to reject and no own rows`);
        continue;
      }
      const answer = await send(route, plainInput(route, path), caller.label, caller.token);
      report.realCalls += 1;
      if (answer.status === 401 || answer.status === 403 || answer.status >= 500) {
        answer.fail(`the table allows ${route.access}: expected neither 401, 403 nor 5xx`);
      }
    }
  }
  return report;
}

const summary = (report: Report, callers: Caller[]) =>
  [
    `${report.routes} routes (${report.guarded} guarded), anonymous on all and ${callers.length} callers on the guarded = ${report.cases} cases`,
    `${report.anonymous} anonymous`,
    `${report.denied} denied with 403`,
    `${report.rejected} allowed and stopped by validation`,
    `${report.realCalls} allowed real calls`,
    `${report.violations.length} violations`,
    `skipped: ${report.skipped.length ? report.skipped.join('; ') : 'none'}`,
  ].join(', ');

let t: TestServer;
let world: World;
let callers: Caller[];

beforeAll(async () => {
  t = await startTestServer();
  world = await seedWorld(t);
  callers = [
    {
      label: 'agent',
      token: world.a.agent.token,
      principal: { profile: 'user', super: false },
      plan: ALL_FLAGS,
      own: world.a,
    },
    {
      label: 'admin',
      token: world.a.admin.token,
      principal: { profile: 'admin', super: false },
      plan: ALL_FLAGS,
      own: world.a,
    },
    // The super user's own company has a plan with every flag off: `can()` ignores it.
    {
      label: 'super',
      token: world.superToken,
      principal: { profile: 'admin', super: true },
      plan: NO_FLAGS,
    },
    {
      label: 'planless agent',
      token: world.planlessUserToken,
      principal: { profile: 'user', super: false },
      plan: NO_FLAGS,
    },
  ];
});
afterAll(() => t.stop());

describe('authorisation sweep over every registered route', () => {
  it('has callers who are who the sweep thinks they are', async () => {
    for (const caller of callers) {
      const response = await t.as(caller.token).get('/auth/me');
      expect(response.statusCode, caller.label).toBe(200);
      const me = response.json<SessionUser>();
      expect({ profile: me.profile, super: me.super }, caller.label).toEqual(caller.principal);
      const plan = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, me.company.plan[flag]]));
      expect(plan, caller.label).toEqual(caller.plan);
    }
  });

  it('lets each caller through exactly where the permission table does', async () => {
    const routes = t.app.routeCatalog;
    const report = await permissionSweep(t, t.app, world, routes, callers);
    console.info(`permission sweep: ${summary(report, callers)}`);

    expect(report.violations.join('\n')).toBe('');
    // The exceptions name public routes that still answer 401, or they go.
    for (const name of Object.keys(PUBLIC_401)) {
      expect(report.answers, name).toContainEqual(
        expect.stringMatching(new RegExp(`^${name} \\| anonymous .* -> 401$`)),
      );
    }
    const guarded = routes.filter((route) => route.access !== 'public');
    expect(report.anonymous).toBe(routes.length);
    // Every guarded route was tried by every caller, allowed or denied.
    const tried = new Set(report.answers.map((answer) => answer.split(' | ')[0]));
    expect(tried.size).toBe(routes.length);
    for (const caller of callers) {
      const seen = new Set(
        report.answers
          .filter((answer) => answer.includes(`| ${caller.label} `))
          .map((answer) => answer.split(' | ')[0]),
      );
      const skipped = report.skipped.filter((line) => line.includes(` as ${caller.label}: `));
      expect(seen.size + skipped.length, caller.label).toBe(guarded.length);
    }
    // Each caller but the super user is refused somewhere, so none passed by accident.
    for (const label of ['agent', 'admin', 'planless agent']) {
      expect(
        report.answers.some((a) => a.includes(`| ${label} plain -> 403`)),
        label,
      ).toBe(true);
    }
    expect(report.answers.some((a) => a.includes('| super plain -> 403'))).toBe(false);
    expect(report.rejected).toBeGreaterThan(100);
  });
});

/**
 * The table's rows that no route uses yet (plan flags, announcements...) still go through the
 * guard: a probe route per row, added to the real app, is swept like the product's own routes.
 * One more probe refuses in its handler what its table row allows, which the sweep must report.
 */
async function probeRoutes(app: App) {
  const serve = serveOn(app);
  const ok = z.object({ ok: z.boolean() });
  for (const name of Object.keys(PERMISSIONS) as PermissionName[]) {
    const path = `/probe/${name.replace(':', '-')}`;
    const probe = defineContract('probe', {
      read: { method: 'GET', path, access: name, responses: { 200: ok } },
      write: {
        method: 'POST',
        path,
        access: name,
        body: z.strictObject({ n: z.number() }),
        responses: { 200: ok },
      },
    });
    serve(probe.read, async () => ({ ok: true }));
    serve(probe.write, async () => ({ ok: true }));
  }
  const stricter = defineContract('probe', {
    refusesAgents: {
      method: 'GET',
      path: '/probe/refuses-agents',
      access: 'session:use',
      responses: { 200: ok },
    },
  });
  serve(stricter.refusesAgents, async (req) => {
    if (req.ctx.profile !== 'admin') throw forbidden();
    return { ok: true };
  });
}

describe('the sweep itself', () => {
  it('enforces every row of the table, plan flags included, and reports a stricter handler', async () => {
    const app = await buildApp({ config: t.app.platform.config, database: t.database });
    try {
      await app.register(probeRoutes);
      await app.ready();
      const routes = app.routeCatalog.filter((route) => route.url.startsWith('/probe/'));
      expect(routes).toHaveLength(Object.keys(PERMISSIONS).length * 2 + 1);

      const report = await permissionSweep(t, app, world, routes, callers);
      console.info(`permission sweep on probe routes: ${summary(report, callers)}`);

      // The plan gate: the agent with every flag on may, the planless agent may not.
      expect(report.answers).toContain('GET /probe/kanban-use | agent plain -> 200');
      expect(report.answers).toContain('GET /probe/kanban-use | planless agent plain -> 403');
      expect(report.answers).toContain('POST /probe/kanban-use | planless agent body [] -> 403');
      // The role ladder, and the super user's own plan not holding it back.
      expect(report.answers).toContain('GET /probe/campaigns-use | agent plain -> 403');
      expect(report.answers).toContain('GET /probe/campaigns-use | super plain -> 200');
      expect(report.answers).toContain('POST /probe/announcements-manage | admin body [] -> 403');
      expect(report.answers).toContain('POST /probe/announcements-manage | super body [] -> 400');
      expect(report.violations).toEqual([
        expect.stringMatching(/^GET \/probe\/refuses-agents \| agent plain: .* got 403/),
        expect.stringMatching(/^GET \/probe\/refuses-agents \| planless agent plain: .* got 403/),
      ]);
    } finally {
      await app.close();
    }
  });
});
