import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CatalogRoute } from '../../src/platform/auth/guard';
import { isSecretName } from '../../src/platform/logger';
import { startTestServer, type TestServer } from '../harness';
import { EXAMPLES } from './isolation';
import { pathFor, seedWorld, type World } from './world';

/**
 * No credential in any log line, whatever its place: every registered route is called with a
 * known secret in every place a credential can travel, and the whole log (every level, JSON
 * lines) must hold none of them.
 *
 * - each path parameter, query parameter and body field (at any depth) whose name is a secret's
 *   by the logger's one rule (`isSecretName`: `newPassword`, `token`, `verifyToken`, `apiKey`...),
 * - query parameters and body fields no contract declares but a client may send anyway
 *   (`password`, `access_token`, `hub.verify_token`, `apiKey`), which reach the request line,
 * - the bearer token of the super user who calls, and a refresh-session cookie.
 *
 * The scan itself is proven on a secret planted in the log through the server's own logger.
 */

let t: TestServer;
let world: World;
const lines: string[] = [];

interface Json {
  type?: string | string[];
  properties?: Record<string, Json>;
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
  allOf?: Json[];
}

/** A known secret: unique, so finding it in the log can mean only one thing. */
interface Placed {
  value: string;
  where: string;
}
const placed: Placed[] = [];
const secret = (where: string): string => {
  const value = `Sw33p${placed.length}x${Math.random().toString(36).slice(2, 10)}Kq`;
  placed.push({ value, where });
  return value;
};

/** Every property name in a JSON schema, with the path to it (objects, lists, unions). */
function propertyPaths(schema: Json, at: string[] = [], depth = 0): string[][] {
  if (depth > 5) return [];
  const found: string[][] = [];
  for (const option of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    found.push(...propertyPaths(option, at, depth + 1));
  }
  if (schema.items) found.push(...propertyPaths(schema.items, [...at, '[]'], depth + 1));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push([...at, name], ...propertyPaths(property, [...at, name], depth + 1));
  }
  return found;
}

const toJson = (schema: unknown): Json =>
  schema
    ? (z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json)
    : {};

/** Sets `value` at `path` in `target`, making the objects and one-item lists on the way. */
function setAt(target: Record<string, unknown>, path: string[], value: string) {
  let node = target;
  path.forEach((segment, index) => {
    if (segment === '[]') return;
    if (index === path.length - 1) {
      node[segment] = value;
      return;
    }
    if (typeof node[segment] !== 'object' || node[segment] === null) {
      node[segment] = path[index + 1] === '[]' ? [] : {};
    }
    const child = node[segment] as Record<string, unknown> | Record<string, unknown>[];
    if (Array.isArray(child)) {
      if (child.length === 0) child.push({});
      node = child[0]!;
    } else {
      node = child;
    }
  });
}

interface Call {
  method: string;
  url: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
  headers: Record<string, string>;
}

function callFor(route: CatalogRoute): Call {
  const name = `${route.method} ${route.url}`;
  const example = EXAMPLES[name];
  const filled = pathFor(route, world.a, world).split('/');
  const url = route.url
    .split('/')
    .map((segment, index) =>
      segment.startsWith(':') && isSecretName(segment.slice(1))
        ? encodeURIComponent(secret(`${name} path :${segment.slice(1)}`))
        : filled[index],
    )
    .join('/');
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const query: Record<string, string> = { ...(example?.query as Record<string, string>) };
  for (const path of propertyPaths(toJson(schema.querystring))) {
    const field = path.at(-1)!;
    if (path.length === 1 && isSecretName(field)) query[field] = secret(`${name} query ${field}`);
  }
  for (const extra of ['password', 'access_token', 'hub.verify_token', 'apiKey']) {
    query[extra] ??= secret(`${name} undeclared query ${extra}`);
  }
  let body: Record<string, unknown> | undefined;
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    body = structuredClone((example?.body as Record<string, unknown>) ?? {});
    for (const path of propertyPaths(toJson(schema.body))) {
      if (isSecretName(path.at(-1)!)) setAt(body, path, secret(`${name} body ${path.join('.')}`));
    }
    body.password ??= secret(`${name} undeclared body password`);
  }
  return {
    method: route.method,
    url,
    query,
    body,
    headers: {
      authorization: `Bearer ${world.superToken}`,
      cookie: `jrt=${secret(`${name} refresh cookie`)}`,
    },
  };
}

/** Where each known secret shows in the log, as written or as an address carries it. */
function leaksIn(log: string[], secrets: Placed[]): string[] {
  const text = log.join('\n');
  return secrets
    .filter(({ value }) => text.includes(value) || text.includes(encodeURIComponent(value)))
    .map(({ value, where }) => {
      const line = log.find(
        (entry) => entry.includes(value) || entry.includes(encodeURIComponent(value)),
      );
      return `${where}: ${line?.slice(0, 300)}`;
    });
}

beforeAll(async () => {
  t = await startTestServer({ LOG_LEVEL: 'trace', LOG_FORMAT: 'json' }, undefined, {
    logStream: { write: (text: string) => lines.push(...text.trimEnd().split('\n')) },
  });
  world = await seedWorld(t);
});
afterAll(() => t.stop());

describe('log sweep over every registered route', () => {
  it('writes no credential of any request into any log line', async () => {
    const stored = (
      await t.database.db.execute<{ token: string }>(
        'select token from connections where token is not null',
      )
    ).rows.map(({ token }) => ({ value: token, where: "a connection's API token" }));
    placed.push({ value: world.superToken, where: "the caller's bearer token" }, ...stored);
    // Deletions last, so every other route still finds its rows.
    const routes = [...t.app.routeCatalog].sort(
      (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
    );
    const secretPathRoutes = new Set<string>();
    for (const route of routes) {
      const call = callFor(route);
      if (call.url.includes('Sw33p')) secretPathRoutes.add(`${route.method} ${route.url}`);
      const response = await t.app.inject({
        method: call.method as 'GET',
        url: call.url,
        query: call.query,
        headers: call.headers,
        ...(call.body === undefined ? {} : { payload: call.body }),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBeLessThan(600);
    }
    // Work the calls set off (jobs, deliveries) logs too: wait until the log is quiet.
    let seen = -1;
    await expect
      .poll(
        () => {
          const quiet = lines.length === seen;
          seen = lines.length;
          return quiet;
        },
        { interval: 300, timeout: 10_000 },
      )
      .toBe(true);

    expect(secretPathRoutes).toContain('POST /resetpasswords/:email/:token/:newPassword');
    expect(leaksIn(lines, placed)).toEqual([]);
    console.info(
      `log sweep: ${routes.length} routes, ${placed.length} known secrets ` +
        `(${secretPathRoutes.size} routes with secret path parameters), ${lines.length} log lines, no leak`,
    );
  });

  it('finds a secret planted in the log', () => {
    const planted = { value: `Pl4nted${Date.now()}Qz`, where: 'a careless service line' };
    const before = lines.length;
    t.app.log.warn({ detail: `retrying with ${planted.value}` }, 'a careless service line');
    expect(lines.length).toBeGreaterThan(before);
    expect(leaksIn(lines, [...placed, planted])).toEqual([
      expect.stringContaining('a careless service line:'),
    ]);
  });
});
