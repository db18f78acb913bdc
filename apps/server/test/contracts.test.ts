import { allRoutes } from '@atendi/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

const nameOf = (route: { method: string; path?: string; url?: string }) =>
  `${route.method} ${route.path ?? route.url}`;

describe('route contracts', () => {
  it('registers no route that is not one of the shared contracts', () => {
    const shared = new Set(allRoutes());
    const strays = t.app.routeCatalog.filter((route) => !shared.has(route.contract));
    expect(strays.map(nameOf)).toEqual([]);
    expect(t.app.routeCatalog).toHaveLength(allRoutes().length);
  });

  it('registers every route of every contract once, as the contract says', () => {
    const registered = new Map(t.app.routeCatalog.map((route) => [route.contract, route]));
    const missing = allRoutes().filter((contract) => !registered.has(contract));
    expect(missing.map(nameOf)).toEqual([]);
    for (const contract of allRoutes()) {
      const route = registered.get(contract)!;
      expect(nameOf(route)).toBe(nameOf(contract));
      expect(route.access).toBe(contract.access);
      // validation and the answer's shape are the contract's own schemas
      expect(route.schema?.params).toBe(contract.params);
      expect(route.schema?.querystring).toBe(contract.query);
      expect(route.schema?.body).toBe(contract.body);
      const answers = route.schema?.response as Record<string, unknown> | undefined;
      for (const [status, schema] of Object.entries(contract.responses)) {
        expect(answers?.[status], `${nameOf(contract)} ${status}`).toBe(schema ?? undefined);
      }
    }
    const names = allRoutes().map(nameOf);
    expect(new Set(names).size).toBe(names.length);
  });
});
