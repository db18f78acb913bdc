import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

let t: TestServer;
let superToken: string;
let adminToken: string;
let userToken: string;
beforeAll(async () => {
  t = await startTestServer();
  superToken = (await t.login((await t.make.company({ super: true })).admin.email)).token;
  const { company, admin } = await t.make.company();
  const user = await t.make.user(company.id);
  adminToken = (await t.login(admin.email)).token;
  userToken = (await t.login(user.email)).token;
});
afterAll(() => t.stop());

const asSuper = () => t.as(superToken);

let sequence = 0;
const planBody = (overrides: Record<string, unknown> = {}) => {
  sequence += 1;
  return {
    name: `Plano ${sequence}`,
    users: 5,
    connections: 2,
    queues: 4,
    value: 149.9,
    ...overrides,
  };
};

async function planRow(id: number) {
  const { rows } = await t.database.db.execute<{ name: string; users: number; value: string }>(
    sql`select name, users, value from plans where id = ${id}`,
  );
  return rows[0];
}

/** Every plans route but the public list, with a body where it takes one. */
const guarded = (id: number) =>
  [
    ['GET', '/plans'],
    ['GET', '/plans/all'],
    ['GET', `/plans/${id}`],
    ['POST', '/plans', planBody()],
    ['PUT', `/plans/${id}`, { name: 'Changed by someone' }],
    ['DELETE', `/plans/${id}`],
  ] as const;

describe('GET /plans/list', () => {
  it('is public and answers every plan with its limits and flags', async () => {
    const plan = await t.make.plan({ name: 'Public Basic', value: 10, useKanban: true });
    const response = await t.app.inject({ method: 'GET', url: '/plans/list' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toContainEqual({
      id: plan.id,
      name: 'Public Basic',
      users: 50,
      connections: 5,
      queues: 10,
      value: 10,
      useCampaigns: false,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
      useKanban: true,
      useOpenAi: false,
      useIntegrations: false,
    });
  });

  it('lists the cheapest first', async () => {
    await t.make.plan({ value: 0.5 });
    await t.make.plan({ value: 999 });
    const values = (await t.app.inject({ method: 'GET', url: '/plans/list' }))
      .json()
      .map((p: { value: number }) => p.value);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('plans routes for the super user only', () => {
  it('answer 401 without a token', async () => {
    const plan = await t.make.plan();
    for (const [method, url, payload] of guarded(plan.id)) {
      const response = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await planRow(plan.id)).toMatchObject({ name: plan.name });
  });

  it('answer 403 ERR_NO_PERMISSION to admins and users and change nothing', async () => {
    const plan = await t.make.plan();
    const before = await t.database.db.execute(sql`select count(*)::int as n from plans`);
    for (const token of [adminToken, userToken]) {
      for (const [method, url, payload] of guarded(plan.id)) {
        const as = t.as(token);
        const response =
          method === 'GET'
            ? await as.get(url)
            : method === 'DELETE'
              ? await as.delete(url)
              : method === 'POST'
                ? await as.post(url, payload)
                : await as.put(url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    expect(await planRow(plan.id)).toMatchObject({ name: plan.name });
    const after = await t.database.db.execute(sql`select count(*)::int as n from plans`);
    expect(after.rows).toEqual(before.rows);
  });
});

describe('GET /plans and /plans/all', () => {
  it('answer the super user every plan', async () => {
    const plan = await t.make.plan();
    for (const url of ['/plans', '/plans/all']) {
      const response = await asSuper().get(url);
      expect(response.statusCode).toBe(200);
      expect(response.json().map((p: { id: number }) => p.id)).toContain(plan.id);
    }
  });
});

describe('GET /plans/:id', () => {
  it('answers the plan, or 404 ERR_NO_PLAN_FOUND', async () => {
    const plan = await t.make.plan({ name: 'Read me' });
    const response = await asSuper().get(`/plans/${plan.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: plan.id, name: 'Read me' });
    const missing = await asSuper().get('/plans/987654');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    expect((await asSuper().get('/plans/abc')).statusCode).toBe(400);
  });
});

describe('POST /plans', () => {
  it('creates a plan with its limits and flags', async () => {
    const body = planBody({ useCampaigns: true, useOpenAi: true });
    const response = await asSuper().post('/plans', body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      ...body,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
      useKanban: false,
      useIntegrations: false,
    });
    expect(await planRow(response.json().id)).toMatchObject({ name: body.name, users: 5 });
  });

  it('validates the form', async () => {
    for (const overrides of [
      { name: 'P' },
      { name: 'p'.repeat(51) },
      { name: undefined },
      { users: -1 },
      { users: 1.5 },
      { users: 'many' },
      // Blank text is not 0 (a limit of 0 means unlimited).
      { users: '' },
      { queues: '   ' },
      { connections: null },
      { value: true },
      { connections: undefined },
      { value: -10 },
      { useKanban: 'yes' },
      { useOpenAi: 1 },
    ]) {
      const body = planBody(overrides);
      const response = await asSuper().post('/plans', body);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
      const { rows } = await t.database.db.execute(
        sql`select id from plans where name = ${String(body.name)}`,
      );
      expect(rows).toHaveLength(0);
    }
  });

  it('refuses a name in use with 409', async () => {
    const plan = await t.make.plan();
    const response = await asSuper().post('/plans', planBody({ name: plan.name }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('ERR_VALIDATION');
  });
});

describe('PUT /plans/:id', () => {
  it('changes the fields sent and keeps the others', async () => {
    const plan = await t.make.plan({ users: 3 });
    const response = await asSuper().put(`/plans/${plan.id}`, {
      id: 424242,
      value: '10.5',
      useKanban: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: plan.id,
      name: plan.name,
      users: 3,
      value: 10.5,
      useKanban: true,
    });
  });

  it('answers 404 for an unknown plan, 409 for a name in use, 400 for bad fields', async () => {
    const plan = await t.make.plan();
    const other = await t.make.plan();
    expect((await asSuper().put('/plans/987654', { value: 1 })).statusCode).toBe(404);
    const taken = await asSuper().put(`/plans/${plan.id}`, { name: other.name });
    expect(taken.statusCode).toBe(409);
    expect((await asSuper().put(`/plans/${plan.id}`, { users: -5 })).statusCode).toBe(400);
    expect((await asSuper().put(`/plans/${plan.id}`, { name: ['x'] })).statusCode).toBe(400);
    expect(await planRow(plan.id)).toMatchObject({ name: plan.name, users: plan.users });
  });
});

describe('DELETE /plans/:id', () => {
  it('deletes an unused plan', async () => {
    const plan = await t.make.plan();
    const response = await asSuper().delete(`/plans/${plan.id}`);
    expect(response.statusCode).toBe(204);
    expect(await planRow(plan.id)).toBeUndefined();
    expect((await asSuper().delete(`/plans/${plan.id}`)).statusCode).toBe(404);
  });

  it('refuses a plan a company uses with 409 ERR_PLAN_IN_USE', async () => {
    const plan = await t.make.plan();
    await t.make.company({ planId: plan.id });
    const response = await asSuper().delete(`/plans/${plan.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_PLAN_IN_USE' });
    expect(await planRow(plan.id)).toBeDefined();
  });
});
