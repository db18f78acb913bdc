import { defineContract, ticketIdParamsSchema } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, buildApp } from '../../src/app';
import { tickets } from '../../src/db/schema';
import { TenantDb } from '../../src/db/tenant';
import { notFound } from '../../src/platform/errors';
import { serveOn } from '../../src/platform/routes';
import { startTestServer, type TestServer } from '../harness';
import { isolationSweep, PLATFORM_LISTS, type SweepReport } from './isolation';
import { seedWorld, snapshot, type World } from './world';

/**
 * Company B's admin calls every registered route with company A's ids: the path ones are
 * refused with 404 or 403, the body and query ones act like ids that exist nowhere, the lists
 * answer nothing of A, and A's rows stay as they were. See isolation.ts for the rules.
 */

let t: TestServer;
let world: World;

beforeAll(async () => {
  t = await startTestServer();
  world = await seedWorld(t);
});
afterAll(() => t.stop());

const summary = (report: SweepReport) =>
  [
    `${report.idRoutes.length} id routes (${report.idCases} cases)`,
    `${report.listRoutes.length} list routes (${report.listCases} cases)`,
    `${report.publicRoutes.length} public routes (${report.publicCases} cases)`,
    `${report.ignored.length} reference fields ignored like a missing id`,
    `${report.notRows.length} id-named fields or lists naming no company row`,
    `${report.violations.length} violations`,
  ].join(', ');

const listed = (report: SweepReport) =>
  report.violations.map((v) => `${v.route} [${v.case}] ${v.problem}`).join('\n');

describe('tenant isolation sweep over every registered route', () => {
  // Every registered route, called as company B: well under a minute alone, more on a loaded machine.
  it('gives company B nothing of company A and changes nothing of A', async () => {
    const before = await snapshot(t, world.a.companyId);
    const report = await isolationSweep(t, world);
    const after = await snapshot(t, world.a.companyId);

    expect(listed(report)).toBe('');
    expect(after).toBe(before);
    // Every route is walked: it names rows, lists, or has no ids at all.
    const walked = [
      ...report.idRoutes,
      ...report.listRoutes,
      ...report.publicRoutes,
      ...report.withoutIds,
    ];
    const platformLists = Object.keys(PLATFORM_LISTS).length;
    expect(walked.length).toBe(t.app.routeCatalog.length - platformLists);
    expect(report.idRoutes.length).toBeGreaterThan(45);
    // The lists answered B's own rows (so their answers are not empty by accident), and were
    // asked again with A's ids in their filters.
    for (const list of [
      'GET /tickets',
      'GET /contacts',
      'GET /users',
      'GET /tags/list',
      'GET /quick-messages/list',
      'GET /queue',
      'GET /whatsapp',
      'GET /ticket-notes/list',
    ]) {
      expect(report.answers).toContain(`${list} | plain -> 200 with B's data`);
    }
    for (const [field, kind] of [
      ['queueIds', 'queue'],
      ['users', 'user'],
      ['tags', 'tag'],
    ]) {
      expect(report.answers).toContain(`GET /tickets | querystring.${field} = A's ${kind} -> 200`);
    }
    console.info(
      `isolation sweep: ${summary(report)}; routes without ids: ${report.withoutIds.join(', ')}`,
    );
    console.info(`isolation sweep, ignored reference fields: ${report.ignored.join('; ')}`);
    console.info(
      `isolation sweep, fields naming no company row:\n  ${report.notRows.join('\n  ')}`,
    );
  }, 180_000);
});

/**
 * Routes that forget the company, as module code cannot write them (it has no raw handle): they
 * use the test database's own. Each is a way a real route could go wrong; the last one is the
 * same read done right, which the sweep must let pass.
 */
function brokenRoutes(db: TestServer['database']['db']) {
  const params = ticketIdParamsSchema;
  const access = 'session:use' as const;
  const read = z.object({ id: z.number(), lastMessage: z.string().nullable() });
  const probes = defineContract('probe', {
    read: {
      method: 'GET',
      path: '/probe/read/:ticketId',
      access,
      params,
      responses: { 200: read },
    },
    write: {
      method: 'PUT',
      path: '/probe/write/:ticketId',
      access,
      params,
      responses: { 200: z.object({ id: z.number() }) },
    },
    list: {
      method: 'GET',
      path: '/probe/list',
      access,
      responses: { 200: z.array(z.object({ lastMessage: z.string().nullable() })) },
    },
    reference: {
      method: 'POST',
      path: '/probe/reference',
      access,
      body: z.strictObject({ ticketId: ticketIdParamsSchema.shape.ticketId, note: z.string() }),
      responses: { 201: z.object({ saved: z.boolean() }) },
    },
    scoped: {
      method: 'GET',
      path: '/probe/scoped/:ticketId',
      access,
      params,
      responses: { 200: read },
    },
  });
  return async (app: App) => {
    const serve = serveOn(app);
    const unscoped = async (id: number) =>
      (await db.select().from(tickets).where(eq(tickets.id, id)))[0];

    // Reads a ticket by id without the company filter.
    serve(probes.read, async (req) => {
      const ticket = await unscoped(req.params.ticketId);
      if (!ticket) throw notFound();
      return { id: ticket.id, lastMessage: ticket.lastMessage };
    });
    // Writes before it looks: answers 404 as it should, but another company's row has moved.
    serve(probes.write, async (req) => {
      await db
        .update(tickets)
        .set({ unreadMessages: sql`${tickets.unreadMessages} + 1` })
        .where(eq(tickets.id, req.params.ticketId));
      const own = new TenantDb(db, req.ctx.companyId);
      const [ticket] = await own.selectFrom(tickets, eq(tickets.id, req.params.ticketId));
      if (!ticket) throw notFound();
      return { id: ticket.id };
    });
    // Lists every company's tickets.
    serve(probes.list, async () =>
      (await db.select().from(tickets)).map((ticket) => ({ lastMessage: ticket.lastMessage })),
    );
    // Checks a body reference without the company filter: A's ticket passes, a missing one not.
    serve(probes.reference, async (req) => {
      if (!(await unscoped(req.body.ticketId))) throw notFound();
      return { saved: true };
    });
    // The same read through the company's own handle: refused, as every real route.
    serve(probes.scoped, async (req) => {
      const own = new TenantDb(db, req.ctx.companyId);
      const [ticket] = await own.selectFrom(tickets, eq(tickets.id, req.params.ticketId));
      if (!ticket) throw notFound();
      return { id: ticket.id, lastMessage: ticket.lastMessage };
    });
  };
}

describe('the sweep itself', () => {
  it('reports routes that forget the company', async () => {
    // The real app as buildApp makes it, before it is ready: routes added now pass through the
    // same guard, error handling and catalog as the product's own.
    const app = await buildApp({ config: t.app.platform.config, database: t.database });
    try {
      await app.register(brokenRoutes(t.database.db));
      await app.ready();
      const routes = app.routeCatalog.filter((route) => route.url.startsWith('/probe/'));
      expect(routes).toHaveLength(5);

      const report = await isolationSweep({ ...t, app }, world, { routes });

      const problems = (route: string) =>
        report.violations.filter((v) => v.route === route).map((v) => v.problem);
      expect(problems('GET /probe/read/:ticketId')).toEqual([
        expect.stringContaining("answered company A's data (ALPHA7)"),
        expect.stringContaining('expected 404 or 403 with an ERR_ code, got 200'),
      ]);
      expect(problems('PUT /probe/write/:ticketId')).toEqual([
        "changed company A's rows (tickets)",
      ]);
      expect(problems('GET /probe/list')).toEqual([
        expect.stringContaining("answered company A's data (ALPHA7)"),
      ]);
      expect(problems('POST /probe/reference')).toEqual([
        expect.stringContaining("accepted A's id, but refuses a missing one with 404"),
      ]);
      expect(problems('GET /probe/scoped/:ticketId')).toEqual([]);
      expect(report.violations).toHaveLength(5);
      console.info(
        `isolation sweep on deliberately broken routes: ${summary(report)}\n${listed(report)}`,
      );
    } finally {
      await app.close();
    }
  });
});
