import { DEFAULT_SCHEDULES, withTwoPeriods } from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { queues, userQueues } from '../../db/schema';
import { TenantDb } from '../../db/tenant';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

/** A company with its admin and a plain user, both signed in. */
async function tenant() {
  const { company, admin } = await t.make.company();
  const user = await t.make.user(company.id);
  const [a, u] = await Promise.all([t.login(admin.email), t.login(user.email)]);
  return {
    company,
    user,
    db: new TenantDb(t.database.db, company.id),
    asAdmin: t.as(a.token),
    asUser: t.as(u.token),
  };
}

async function queueRow(id: number) {
  const { rows } = await t.database.db.execute<{
    company_id: number;
    name: string;
    color: string;
    greeting_message: string;
  }>(sql`select company_id, name, color, greeting_message from queues where id = ${id}`);
  return rows[0];
}

let sequence = 0;
const queueBody = (overrides: Record<string, unknown> = {}) => {
  sequence += 1;
  return {
    name: `Fila ${sequence}`,
    color: `#${(0x100000 + sequence).toString(16)}`,
    greetingMessage: 'Olá! Escolha uma opção.',
    ...overrides,
  };
};

const queueShape = {
  id: expect.any(Number),
  name: expect.any(String),
  color: expect.any(String),
  greetingMessage: expect.any(String),
  complationMessage: expect.any(String),
  outOfHoursMessage: expect.any(String),
  ratingMessage: expect.any(String),
  /** Answered to admins; the tests read as admins unless they say otherwise. */
  token: null,
  orderQueue: null,
  integrationId: null,
  promptId: null,
  schedules: expect.any(Array),
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
};

describe('GET /queue', () => {
  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/queue' })).statusCode).toBe(401);
  });

  it("answers any user of the company its company's queues only", async () => {
    const { company, asUser, asAdmin } = await tenant();
    const mine = await t.make.queue(company.id, { name: 'Suporte' });
    const other = await t.make.company();
    const theirs = await t.make.queue(other.company.id);
    for (const as of [asUser, asAdmin]) {
      const response = await as.get(`/queue?companyId=${other.company.id}`);
      expect(response.statusCode).toBe(200);
      const list = response.json();
      const { token: _token, ...forUsers } = queueShape;
      const shape = as === asAdmin ? queueShape : forUsers;
      expect(list).toEqual([{ ...shape, id: mine.id, name: 'Suporte' }]);
      expect(list.map((q: { id: number }) => q.id)).not.toContain(theirs.id);
    }
  });

  it('orders by orderQueue, then name', async () => {
    const { company, asUser } = await tenant();
    await t.make.queue(company.id, { name: 'B', orderQueue: 2 });
    await t.make.queue(company.id, { name: 'C', orderQueue: 1 });
    await t.make.queue(company.id, { name: 'A', orderQueue: 2 });
    const names = (await asUser.get('/queue')).json().map((q: { name: string }) => q.name);
    expect(names).toEqual(['C', 'A', 'B']);
  });
});

describe('GET /queue/:id', () => {
  it("answers the queue to a user of the company and 404 for another company's", async () => {
    const { company, asUser } = await tenant();
    const mine = await t.make.queue(company.id);
    const other = await t.make.company();
    const theirs = await t.make.queue(other.company.id);
    expect((await t.app.inject({ method: 'GET', url: `/queue/${mine.id}` })).statusCode).toBe(401);
    const response = await asUser.get(`/queue/${mine.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: mine.id, name: mine.name, color: mine.color });
    const foreign = await asUser.get(`/queue/${theirs.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toMatch(/^ERR_/);
  });
});

describe('POST /queue', () => {
  it('answers 401 without a token and 403 to a plain user, creating nothing', async () => {
    const { db, asUser } = await tenant();
    const body = queueBody();
    const anonymous = await t.app.inject({ method: 'POST', url: '/queue', payload: body });
    expect(anonymous.statusCode).toBe(401);
    const response = await asUser.post('/queue', body);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await db.count(queues)).toBe(0);
  });

  it('takes the seven days of hours or none, and refuses part of a week', async () => {
    const { asAdmin } = await tenant();
    const partial = await asAdmin.post(
      '/queue',
      queueBody({ schedules: DEFAULT_SCHEDULES.slice(0, 1) }),
    );
    expect(partial.statusCode).toBe(400);
    expect(partial.json().error).toBe('ERR_VALIDATION');
    const none = await asAdmin.post('/queue', queueBody({ schedules: [] }));
    expect(none.statusCode, none.body).toBe(201);
    expect(none.json().schedules).toEqual([]);
  });

  it('creates a queue in the admin company and announces it', async () => {
    const { company, asAdmin } = await tenant();
    const other = await t.make.company();
    const schedules = DEFAULT_SCHEDULES;
    const body = queueBody({
      outOfHoursMessage: 'Estamos fechados',
      orderQueue: 3,
      schedules,
    });
    const response = await asAdmin.post('/queue', body);
    expect(response.statusCode).toBe(201);
    const queue = response.json();
    expect(queue).toEqual({
      ...queueShape,
      ...body,
      orderQueue: 3,
      // each day answered with the original client's two periods too: the span, then none
      schedules: schedules.map(withTwoPeriods),
    });
    expect(queue.schedules[0]).toMatchObject({ startTimeA: '08:00', endTimeB: '00:00' });
    expect((await queueRow(queue.id))!.company_id).toBe(company.id);
    // the whole queue as its users read it: the token is the admins' answer only
    const { token: _token, ...visible } = queue;
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-queue`,
      payload: { action: 'create', queue: visible },
    });
    expect(t.emitted.some((e) => e.event === `company-${other.company.id}-queue`)).toBe(false);
  });

  it("keeps the spec's complationMessage, ratingMessage and token; the token for admins only", async () => {
    const { company, asAdmin, asUser } = await tenant();
    const body = queueBody({
      complationMessage: 'Atendimento encerrado.',
      ratingMessage: 'Avalie de 1 a 5.',
      token: 'queue-token-123',
    });
    const created = await asAdmin.post('/queue', body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ ...queueShape, ...body });
    const id = created.json().id as number;
    const updated = await asAdmin.put(`/queue/${id}`, { ratingMessage: 'Nota?', token: null });
    expect(updated.json()).toMatchObject({
      complationMessage: 'Atendimento encerrado.',
      ratingMessage: 'Nota?',
      token: null,
    });
    await asAdmin.put(`/queue/${id}`, { token: 'queue-token-456' });
    const [row] = await new TenantDb(t.database.db, company.id).selectFrom(
      queues,
      eq(queues.id, id),
    );
    expect(row).toMatchObject({
      complationMessage: 'Atendimento encerrado.',
      ratingMessage: 'Nota?',
      token: 'queue-token-456',
    });
    expect((await asAdmin.get(`/queue/${id}`)).json().token).toBe('queue-token-456');
    const forUser = await asUser.get(`/queue/${id}`);
    expect(forUser.statusCode).toBe(200);
    expect(forUser.json()).not.toHaveProperty('token');
    expect(forUser.json().ratingMessage).toBe('Nota?');
    expect(JSON.stringify((await asUser.get('/queue')).json())).not.toContain('queue-token-456');
  });

  it('validates name 2-50 and color 3-9', async () => {
    const { asAdmin } = await tenant();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'A' }, 'body.name', 'Too Short!'],
      [{ name: 'n'.repeat(51) }, 'body.name', 'Too Long!'],
      [{ name: undefined }, 'body.name', 'Required'],
      [{ color: '#f' }, 'body.color', 'Too Short!'],
      [{ color: '#ff00ff00ff' }, 'body.color', 'Too Long!'],
      [{ color: undefined }, 'body.color', 'Required'],
      [{ greetingMessage: 42 }, 'body.greetingMessage', expect.any(String)],
      [{ orderQueue: -1 }, 'body.orderQueue', expect.any(String)],
      [{ complationMessage: 42 }, 'body.complationMessage', expect.any(String)],
      [{ token: ['x'] }, 'body.token', expect.any(String)],
    ];
    for (const [overrides, path, message] of cases) {
      const body = queueBody(overrides);
      const response = await asAdmin.post('/queue', body);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
      const first = response.json().fields.find((f: { path: string }) => f.path === path);
      expect(first?.message, JSON.stringify(overrides)).toEqual(message);
    }
    for (const bounds of [
      { name: 'AB', color: '#ab' },
      { name: 'N'.repeat(50), color: '#abcdef12' },
    ]) {
      expect((await asAdmin.post('/queue', queueBody(bounds))).statusCode).toBe(201);
    }
  });

  it('refuses a color the company already uses with 409 ERR_QUEUE_COLOR_ALREADY_EXISTS', async () => {
    const { company, asAdmin } = await tenant();
    await t.make.queue(company.id, { color: '#123456' });
    const body = queueBody({ color: '#123456' });
    const response = await asAdmin.post('/queue', body);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    const { rows } = await t.database.db.execute(
      sql`select id from queues where name = ${body.name}`,
    );
    expect(rows).toHaveLength(0);
    // Another company may use the same color.
    const other = await tenant();
    expect((await other.asAdmin.post('/queue', queueBody({ color: '#123456' }))).statusCode).toBe(
      201,
    );
  });

  it('answers 409, not 500, to two queues of one color created at once', async () => {
    const { company, asAdmin } = await tenant();
    const responses = await Promise.all([
      asAdmin.post('/queue', queueBody({ color: '#777777' })),
      asAdmin.post('/queue', queueBody({ color: '#777777' })),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const { rows } = await t.database.db.execute(
      sql`select id from queues where company_id = ${company.id} and color = '#777777'`,
    );
    expect(rows).toHaveLength(1);
  });

  it("stops at the plan's queue limit as connections do, also for creations at once", async () => {
    const plan = await t.make.plan({ queues: 2 });
    const { company, admin } = await t.make.company({ planId: plan.id });
    const asAdmin = t.as((await t.login(admin.email)).token);
    const db = new TenantDb(t.database.db, company.id);
    await t.make.queue(company.id);
    // One place left and two creations at once: exactly one of them takes it.
    const racing = await Promise.all([
      asAdmin.post('/queue', queueBody()),
      asAdmin.post('/queue', queueBody()),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    expect(racing.find((r) => r.statusCode === 403)!.json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
    expect(await db.count(queues)).toBe(2);
    const full = await asAdmin.post('/queue', queueBody());
    expect(full.statusCode).toBe(403);
    expect(full.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await db.count(queues)).toBe(2);
    // A place freed is a place to take again.
    const [first] = await db.selectFrom(queues).limit(1);
    expect((await asAdmin.delete(`/queue/${first!.id}`)).statusCode).toBe(204);
    expect((await asAdmin.post('/queue', queueBody())).statusCode).toBe(201);
  });

  it('lets a plan of 0 queues create without limit', async () => {
    const plan = await t.make.plan({ queues: 0 });
    const { company, admin } = await t.make.company({ planId: plan.id });
    const asAdmin = t.as((await t.login(admin.email)).token);
    const created = await Promise.all(
      Array.from({ length: 4 }, () => asAdmin.post('/queue', queueBody())),
    );
    expect(created.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(await new TenantDb(t.database.db, company.id).count(queues)).toBe(4);
  });

  it('refuses a name the company already uses with 409', async () => {
    const { company, asAdmin } = await tenant();
    await t.make.queue(company.id, { name: 'Financeiro' });
    const response = await asAdmin.post('/queue', queueBody({ name: 'Financeiro' }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('ERR_VALIDATION');
  });
});

describe('PUT /queue/:id', () => {
  it('answers 401 without a token and 403 to a plain user, changing nothing', async () => {
    const { company, asUser } = await tenant();
    const queue = await t.make.queue(company.id);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/queue/${queue.id}`,
      payload: { name: 'Renamed' },
    });
    expect(anonymous.statusCode).toBe(401);
    const response = await asUser.put(`/queue/${queue.id}`, { name: 'Renamed' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await queueRow(queue.id))!.name).toBe(queue.name);
  });

  it('updates the fields sent and announces it', async () => {
    const { company, asAdmin } = await tenant();
    const queue = await t.make.queue(company.id);
    const response = await asAdmin.put(`/queue/${queue.id}`, {
      name: 'Comercial',
      greetingMessage: 'Bem-vindo ao comercial',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: queue.id,
      name: 'Comercial',
      color: queue.color,
      greetingMessage: 'Bem-vindo ao comercial',
    });
    const { token: _token, ...visible } = response.json();
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-queue`,
      payload: { action: 'update', queue: visible },
    });
  });

  it("answers 404 for another company's queue and changes nothing", async () => {
    const { asAdmin } = await tenant();
    const other = await t.make.company();
    const theirs = await t.make.queue(other.company.id);
    const before = await queueRow(theirs.id);
    const response = await asAdmin.put(`/queue/${theirs.id}`, {
      name: 'Hijacked',
      color: '#000',
    });
    expect(response.statusCode).toBe(404);
    expect(await queueRow(theirs.id)).toEqual(before);
  });

  it('refuses a color of another queue of the company, and the bounds', async () => {
    const { company, asAdmin } = await tenant();
    const first = await t.make.queue(company.id, { color: '#aaaaaa' });
    const second = await t.make.queue(company.id, { color: '#bbbbbb' });
    const taken = await asAdmin.put(`/queue/${second.id}`, { color: '#aaaaaa' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    // Its own color is not a duplicate.
    expect((await asAdmin.put(`/queue/${first.id}`, { color: '#aaaaaa' })).statusCode).toBe(200);
    for (const bad of [{ name: 'A' }, { color: 'ab' }, { color: '#0123456789' }, { name: null }]) {
      expect((await asAdmin.put(`/queue/${second.id}`, bad)).statusCode).toBe(400);
    }
    expect((await queueRow(second.id))!.color).toBe('#bbbbbb');
  });
});

describe('DELETE /queue/:id', () => {
  it('answers 401 without a token and 403 to a plain user', async () => {
    const { company, asUser } = await tenant();
    const queue = await t.make.queue(company.id);
    const anonymous = await t.app.inject({ method: 'DELETE', url: `/queue/${queue.id}` });
    expect(anonymous.statusCode).toBe(401);
    const response = await asUser.delete(`/queue/${queue.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await queueRow(queue.id)).toBeDefined();
  });

  it('deletes the queue, unlinks its users and announces it', async () => {
    const { company, user, db, asAdmin } = await tenant();
    const queue = await t.make.queue(company.id);
    await db.insert(userQueues, { userId: user.id, queueId: queue.id });
    const response = await asAdmin.delete(`/queue/${queue.id}`);
    expect(response.statusCode).toBe(204);
    expect(await queueRow(queue.id)).toBeUndefined();
    expect(await db.count(userQueues, eq(userQueues.queueId, queue.id))).toBe(0);
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-queue`,
      payload: { action: 'delete', queueId: queue.id },
    });
    expect((await asAdmin.delete(`/queue/${queue.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another company's queue and deletes nothing", async () => {
    const { asAdmin } = await tenant();
    const other = await t.make.company();
    const theirs = await t.make.queue(other.company.id);
    const response = await asAdmin.delete(`/queue/${theirs.id}`);
    expect(response.statusCode).toBe(404);
    expect(await queueRow(theirs.id)).toBeDefined();
  });
});
