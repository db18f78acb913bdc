import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startTestServer, type TestServer } from '../../../test/harness';
import { connections, contacts, tickets, userQueues, users } from '../../db/schema';
import { TenantDb } from '../../db/tenant';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

const anonymous = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}) });

/** A company with its admin and one plain user, both signed in. */
async function company(plan: { users?: number } = {}) {
  const planId = plan.users === undefined ? undefined : (await t.make.plan(plan)).id;
  const { company, admin } = await t.make.company({ planId });
  const user = await t.make.user(company.id, { name: 'Plain Agent' });
  const [adminSession, userSession] = await Promise.all([
    t.login(admin.email),
    t.login(user.email),
  ]);
  return {
    company,
    admin,
    user,
    db: new TenantDb(t.database.db, company.id),
    asAdmin: t.as(adminSession.token),
    asUser: t.as(userSession.token),
    adminToken: adminSession.token,
    userToken: userSession.token,
  };
}

/** The stored row, read without the company filter so a wrong company shows up too. */
async function row(id: number) {
  const { rows } = await t.database.db.execute<{
    company_id: number;
    name: string;
    email: string;
    profile: string;
    all_ticket: string;
    whatsapp_id: number | null;
    password_hash: string;
  }>(sql`select * from users where id = ${id}`);
  return rows[0];
}

async function linkedQueues(userId: number): Promise<number[]> {
  const { rows } = await t.database.db.execute<{ queue_id: number }>(
    sql`select queue_id from user_queues where user_id = ${userId} order by queue_id`,
  );
  return rows.map((r) => r.queue_id);
}

const newUser = (overrides: Record<string, unknown> = {}) => ({
  name: 'New Agent',
  email: `agent-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'agent-pass',
  ...overrides,
});

/** The first message answered for each field, as the form shows it. */
const fieldMessages = (body: { fields?: { path: string; message: string }[] }) => {
  const messages: Record<string, string> = {};
  for (const field of body.fields ?? []) messages[field.path] ??= field.message;
  return messages;
};

describe('GET /users', () => {
  it('answers 401 without a token', async () => {
    expect((await anonymous('GET', '/users')).statusCode).toBe(401);
  });

  it("answers a user its company's users with the list's fields only (a transfer dialog's search)", async () => {
    const { company: own, admin, user, asUser } = await company();
    const other = await t.make.company();
    await t.make.user(other.company.id, { name: 'Plain Outsider' });
    const response = await asUser.get(`/users/?searchParam=${encodeURIComponent('plain')}`);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.users).toEqual([
      {
        id: user.id,
        name: 'Plain Agent',
        email: user.email,
        profile: 'user',
        online: false,
        queues: [],
      },
    ]);
    const everyone = (await asUser.get('/users')).json();
    expect(everyone.users.map((u: { id: number }) => u.id).sort()).toEqual(
      [admin.id, user.id].sort(),
    );
    for (const listed of everyone.users) {
      for (const field of ['super', 'allTicket', 'whatsappId', 'companyId', 'createdAt']) {
        expect(listed, `${field} of ${own.id}`).not.toHaveProperty(field);
      }
    }
  });

  it("answers the company's users 20 per page with count and hasMore", async () => {
    const { company: own, asAdmin } = await company();
    const other = await t.make.company();
    await t.make.user(other.company.id, { name: 'Outsider' });
    for (let i = 0; i < 23; i++) {
      await t.make.user(own.id, { name: `Member ${String(i).padStart(2, '0')}` });
    }
    const first = await asAdmin.get('/users');
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.count).toBe(25);
    expect(page1.hasMore).toBe(true);
    expect(page1.users).toHaveLength(20);
    expect(page1.users[0]).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      profile: expect.stringMatching(/^(admin|user)$/),
      companyId: own.id,
      queues: [],
      online: false,
    });
    const page2 = (await asAdmin.get('/users?pageNumber=2')).json();
    expect(page2).toMatchObject({ count: 25, hasMore: false });
    expect(page2.users).toHaveLength(5);
    const ids = [...page1.users, ...page2.users].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(25);
    const all = [...page1.users, ...page2.users];
    expect(all.every((u: { companyId: number }) => u.companyId === own.id)).toBe(true);
    expect(all.some((u: { name: string }) => u.name === 'Outsider')).toBe(false);
    expect(first.body + JSON.stringify(page2)).not.toMatch(/password/i);
  });

  it('searches name and email, taking % and _ literally', async () => {
    const { company: own, asAdmin } = await company();
    const percent = await t.make.user(own.id, { name: '100% Sales' });
    const underscore = await t.make.user(own.id, {
      name: 'Underscore',
      email: `under_score${Date.now()}@example.com`,
    });
    await t.make.user(own.id, { name: '1000 Sales' });
    await t.make.user(own.id, {
      name: 'Underscore twin',
      email: `underxscore${Date.now()}@ex.com`,
    });

    const byPercent = (await asAdmin.get(`/users?searchParam=${encodeURIComponent('0%')}`)).json();
    expect(byPercent.users.map((u: { id: number }) => u.id)).toEqual([percent.id]);
    expect(byPercent.count).toBe(1);

    const byUnderscore = (
      await asAdmin.get(`/users?searchParam=${encodeURIComponent('under_score')}`)
    ).json();
    expect(byUnderscore.users.map((u: { id: number }) => u.id)).toEqual([underscore.id]);

    const byEmail = (
      await asAdmin.get(`/users?searchParam=${encodeURIComponent('EX.COM')}`)
    ).json();
    expect(byEmail.users.map((u: { name: string }) => u.name)).toEqual(['Underscore twin']);
  });

  it('validates the query', async () => {
    const { asAdmin } = await company();
    expect((await asAdmin.get('/users?pageNumber=0')).statusCode).toBe(400);
    expect((await asAdmin.get('/users?pageNumber=abc')).statusCode).toBe(400);
    expect((await asAdmin.get('/users?searchParam=x&searchParam=y')).statusCode).toBe(400);
    // A parameter the list does not know is ignored.
    const plain = await asAdmin.get('/users?pageNumber=1');
    const extra = await asAdmin.get('/users?pageNumber=1&unknown=1');
    expect(extra.statusCode).toBe(200);
    expect(extra.json()).toEqual(plain.json());
  });
});

describe('GET /users/list', () => {
  it('answers 401 without a token', async () => {
    expect((await anonymous('GET', '/users/list')).statusCode).toBe(401);
  });

  it("answers any user the company's users only, whatever companyId it sends", async () => {
    const { company: own, admin, user, asUser } = await company();
    const other = await t.make.company();
    const response = await asUser.get(`/users/list?companyId=${other.company.id}`);
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list.map((u: { id: number }) => u.id).sort()).toEqual([admin.id, user.id].sort());
    expect(list[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      profile: expect.any(String),
      online: expect.any(Boolean),
      queues: [],
    });
    expect(response.body).not.toMatch(/password/i);
    expect(own.id).not.toBe(other.company.id);
  });
});

describe('GET /users/:id', () => {
  it('answers 401 without a token', async () => {
    const { user } = await company();
    expect((await anonymous('GET', `/users/${user.id}`)).statusCode).toBe(401);
  });

  it('lets a user read itself but not another user (403)', async () => {
    const { admin, user, asUser } = await company();
    const own = await asUser.get(`/users/${user.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: user.id, email: user.email, profile: 'user' });
    expect(own.body).not.toMatch(/password/i);
    const other = await asUser.get(`/users/${admin.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('answers an admin the user with its queues', async () => {
    const { company: own, user, db, asAdmin } = await company();
    const queue = await t.make.queue(own.id, { name: 'Sales', color: '#00ff00' });
    await db.insert(userQueues, { userId: user.id, queueId: queue.id });
    const response = await asAdmin.get(`/users/${user.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      name: 'Plain Agent',
      companyId: own.id,
      allTicket: 'desabled',
      whatsappId: null,
      super: false,
      queues: [{ id: queue.id, name: 'Sales', color: '#00ff00' }],
    });
  });

  it("answers 404 for another company's user", async () => {
    const { asAdmin } = await company();
    const other = await t.make.company();
    const response = await asAdmin.get(`/users/${other.admin.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });

  it('validates the id', async () => {
    const { asAdmin } = await company();
    expect((await asAdmin.get('/users/abc')).statusCode).toBe(400);
    expect((await asAdmin.get('/users/0')).statusCode).toBe(400);
    expect((await asAdmin.get('/users/99999999999')).statusCode).toBe(400);
  });
});

describe('POST /users', () => {
  it('answers 401 without a token', async () => {
    const response = await anonymous('POST', '/users', newUser());
    expect(response.statusCode).toBe(401);
  });

  it('is for admins: a user gets 403 and nothing is created', async () => {
    const { asUser } = await company();
    const body = newUser();
    const response = await asUser.post('/users', body);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const { rows } = await t.database.db.execute(
      sql`select id from users where email = ${body.email}`,
    );
    expect(rows).toHaveLength(0);
  });

  it('creates a user with profile, queues, connection and allTicket', async () => {
    const { company: own, db, asAdmin } = await company();
    const q1 = await t.make.queue(own.id);
    const q2 = await t.make.queue(own.id);
    const [connection] = await db
      .insert(connections, { name: 'Main number' })
      .returning({ id: connections.id });
    const body = newUser({
      email: 'MiXeD.Case@Example.com',
      profile: 'admin',
      queueIds: [q1.id, q2.id],
      whatsappId: connection!.id,
      allTicket: 'enabled',
    });
    const response = await asAdmin.post('/users', body);
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      id: expect.any(Number),
      name: 'New Agent',
      email: 'mixed.case@example.com',
      profile: 'admin',
      allTicket: 'enabled',
      whatsappId: connection!.id,
      companyId: own.id,
      super: false,
    });
    expect(created.queues.map((q: { id: number }) => q.id).sort()).toEqual([q1.id, q2.id].sort());
    expect(response.body).not.toMatch(/password/i);
    expect((await row(created.id))!.password_hash).toMatch(/^\$argon2id\$/);
    expect(t.emitted).toContainEqual({
      event: `company-${own.id}-user`,
      payload: { action: 'create', user: created },
    });
    // The new user can sign in with the password it was given.
    expect((await t.login('mixed.case@example.com', 'agent-pass')).body.user.id).toBe(created.id);
  });

  it('defaults to a plain user without queues', async () => {
    const { asAdmin } = await company();
    const response = await asAdmin.post('/users', newUser());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ profile: 'user', allTicket: 'desabled', queues: [] });
  });

  it('validates the form with the spec messages', async () => {
    const { asAdmin } = await company();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'A' }, 'body.name', 'Too Short!'],
      [{ name: 'x'.repeat(51) }, 'body.name', 'Too Long!'],
      [{ name: undefined }, 'body.name', 'Required'],
      [{ name: '   ' }, 'body.name', 'Required'],
      [{ email: 'not-an-email' }, 'body.email', 'Invalid email'],
      [{ email: undefined }, 'body.email', 'Required'],
      [{ password: '1234' }, 'body.password', 'Too Short!'],
      [{ password: 'p'.repeat(51) }, 'body.password', 'Too Long!'],
      [{ password: undefined }, 'body.password', 'Required'],
      [{ profile: 'owner' }, 'body.profile', expect.any(String)],
      [{ allTicket: 'maybe' }, 'body.allTicket', expect.any(String)],
      [{ queueIds: ['x'] }, 'body.queueIds.0', expect.any(String)],
      [{ whatsappId: 'abc' }, 'body.whatsappId', expect.any(String)],
    ];
    for (const [overrides, path, message] of cases) {
      const body = newUser(overrides);
      const response = await asAdmin.post('/users', body);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
      expect(fieldMessages(response.json())[path], JSON.stringify(overrides)).toEqual(message);
    }
    // A field the form does not have is ignored: it cannot make a super user.
    const extra = await asAdmin.post(
      '/users',
      newUser({ super: true, email: `s${Date.now()}@x.co` }),
    );
    expect(extra.statusCode).toBe(201);
    expect(extra.json().super).toBe(false);
    // The bounds themselves are accepted.
    const bounds = await asAdmin.post(
      '/users',
      newUser({ name: 'Ab', password: '12345', email: `b${Date.now()}@x.co` }),
    );
    expect(bounds.statusCode).toBe(201);
    const upper = await asAdmin.post(
      '/users',
      newUser({ name: 'N'.repeat(50), password: 'p'.repeat(50) }),
    );
    expect(upper.statusCode).toBe(201);
  });

  it('keeps the new user in the caller company whatever companyId is sent', async () => {
    const { company: own, asAdmin } = await company();
    const other = await t.make.company();
    const response = await asAdmin.post('/users', newUser({ companyId: other.company.id }));
    expect(response.statusCode).toBe(201);
    expect(response.json().companyId).toBe(own.id);
    expect((await row(response.json().id))!.company_id).toBe(own.id);
  });

  it('refuses an email used in any company with 409 ERR_DUPLICATED_EMAIL', async () => {
    const { asAdmin } = await company();
    const other = await t.make.company();
    const response = await asAdmin.post(
      '/users',
      newUser({ email: other.admin.email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_DUPLICATED_EMAIL' });
    const { rows } = await t.database.db.execute(
      sql`select id from users where lower(email) = ${other.admin.email}`,
    );
    expect(rows).toHaveLength(1);
  });

  it('answers 409, not 500, when two admins create the same email at once', async () => {
    const first = await company();
    const second = await company();
    const email = `race${Date.now()}@example.com`;
    const responses = await Promise.all([
      first.asAdmin.post('/users', newUser({ email })),
      second.asAdmin.post('/users', newUser({ email })),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(responses.find((r) => r.statusCode === 409)!.json()).toEqual({
      error: 'ERR_DUPLICATED_EMAIL',
    });
    const { rows } = await t.database.db.execute(sql`select id from users where email = ${email}`);
    expect(rows).toHaveLength(1);
  });

  it("refuses another company's queues with 400 and links nothing", async () => {
    const { company: own, asAdmin } = await company();
    const other = await t.make.company();
    const ownQueue = await t.make.queue(own.id);
    const foreign = await t.make.queue(other.company.id);
    const body = newUser({ queueIds: [ownQueue.id, foreign.id] });
    const response = await asAdmin.post('/users', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('ERR_VALIDATION');
    const { rows } = await t.database.db.execute(
      sql`select id from users where email = ${body.email}`,
    );
    expect(rows).toHaveLength(0);
    const { rows: links } = await t.database.db.execute(
      sql`select * from user_queues where queue_id = ${foreign.id}`,
    );
    expect(links).toHaveLength(0);
  });

  it("refuses another company's connection", async () => {
    const { asAdmin } = await company();
    const other = await t.make.company();
    const [foreign] = await new TenantDb(t.database.db, other.company.id)
      .insert(connections, { name: 'Theirs' })
      .returning({ id: connections.id });
    const response = await asAdmin.post('/users', newUser({ whatsappId: foreign!.id }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
  });

  it("stops at the plan's user limit with ERR_USER_LIMIT_REACHED", async () => {
    // The admin and the plain user already fill a plan of two.
    const { company: own, db, asAdmin } = await company({ users: 2 });
    const response = await asAdmin.post('/users', newUser());
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toEqual({ error: 'ERR_USER_LIMIT_REACHED' });
    expect(await db.count(users)).toBe(2);
    // Concurrent creations cannot pass the limit together.
    const racing = await company({ users: 3 });
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => racing.asAdmin.post('/users', newUser())),
    );
    expect(responses.map((r) => r.statusCode).filter((s) => s === 201)).toHaveLength(1);
    expect(await racing.db.count(users)).toBe(3);
    // A plan with room left accepts the next user.
    const roomy = await company({ users: 3 });
    expect((await roomy.asAdmin.post('/users', newUser())).statusCode).toBe(201);
    expect(own.id).not.toBe(roomy.company.id);
  });
});

describe('PUT /users/:id', () => {
  it('answers 401 without a token', async () => {
    const { user } = await company();
    const response = await anonymous('PUT', `/users/${user.id}`, { name: 'Nobody' });
    expect(response.statusCode).toBe(401);
    expect((await row(user.id))!.name).toBe('Plain Agent');
  });

  it('lets a user edit its own name, email and password and keep its session', async () => {
    const { user, userToken, asUser } = await company();
    const email = `renamed${Date.now()}@example.com`;
    const response = await asUser.put(`/users/${user.id}`, {
      name: 'Renamed Agent',
      email,
      password: 'new-password',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, name: 'Renamed Agent', email });
    expect(response.body).not.toMatch(/password/i);
    // The session it used is kept.
    expect((await t.as(userToken).get('/auth/me')).statusCode).toBe(200);
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: 'new-password' },
    });
    expect(relogin.statusCode).toBe(200);
  });

  it('lets a user send its unchanged admin fields, as the form does', async () => {
    const { company: own, user, db, asUser } = await company();
    const queue = await t.make.queue(own.id);
    await db.insert(userQueues, { userId: user.id, queueId: queue.id });
    const response = await asUser.put(`/users/${user.id}`, {
      name: 'Same Fields',
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: null,
      queueIds: [queue.id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().name).toBe('Same Fields');
  });

  it('forbids a user to raise its profile or change its queues, connection or allTicket', async () => {
    const { company: own, user, db, asUser } = await company();
    const queue = await t.make.queue(own.id);
    const [connection] = await db
      .insert(connections, { name: 'Line' })
      .returning({ id: connections.id });
    for (const body of [
      { profile: 'admin' },
      { queueIds: [queue.id] },
      { whatsappId: connection!.id },
      { allTicket: 'enabled' },
      { name: 'Sneaky', profile: 'admin' },
    ]) {
      const response = await asUser.put(`/users/${user.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    const stored = (await row(user.id))!;
    expect(stored).toMatchObject({
      name: 'Plain Agent',
      profile: 'user',
      all_ticket: 'desabled',
      whatsapp_id: null,
    });
    expect(await linkedQueues(user.id)).toEqual([]);
  });

  it('forbids a user to edit another user', async () => {
    const { admin, asUser } = await company();
    const response = await asUser.put(`/users/${admin.id}`, {
      name: 'Hijacked',
      password: 'hijacked',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await row(admin.id))!.name).toBe('Company Admin');
  });

  it("answers 404 for another company's user and changes nothing", async () => {
    const { asAdmin } = await company();
    const other = await t.make.company();
    const before = await row(other.admin.id);
    const response = await asAdmin.put(`/users/${other.admin.id}`, {
      name: 'Hijacked',
      email: 'hijacked@example.com',
      password: 'hijacked',
      profile: 'user',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect(await row(other.admin.id)).toEqual(before);
  });

  it('lets an admin set profile, queues, connection and allTicket', async () => {
    const { company: own, user, db, asAdmin } = await company();
    const q1 = await t.make.queue(own.id);
    const q2 = await t.make.queue(own.id);
    const [connection] = await db
      .insert(connections, { name: 'Line' })
      .returning({ id: connections.id });
    const response = await asAdmin.put(`/users/${user.id}`, {
      profile: 'admin',
      queueIds: [q1.id, q2.id, q1.id],
      whatsappId: connection!.id,
      allTicket: 'enabled',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      profile: 'admin',
      whatsappId: connection!.id,
      allTicket: 'enabled',
    });
    expect(await linkedQueues(user.id)).toEqual([q1.id, q2.id].sort((a, b) => a - b));
    expect(t.emitted).toContainEqual({
      event: `company-${own.id}-user`,
      payload: { action: 'update', user: response.json() },
    });
    // An empty list takes every queue away.
    await asAdmin.put(`/users/${user.id}`, { queueIds: [] });
    expect(await linkedQueues(user.id)).toEqual([]);
  });

  it('never moves a user to another company', async () => {
    const { company: own, user, asAdmin, asUser } = await company();
    const other = await t.make.company();
    expect(
      (await asAdmin.put(`/users/${user.id}`, { companyId: other.company.id })).statusCode,
    ).toBe(200);
    expect(
      (await asUser.put(`/users/${user.id}`, { companyId: other.company.id })).statusCode,
    ).toBe(200);
    expect((await row(user.id))!.company_id).toBe(own.id);
  });

  it("refuses another company's queues with 400 and keeps the current ones", async () => {
    const { company: own, user, db, asAdmin } = await company();
    const ownQueue = await t.make.queue(own.id);
    await db.insert(userQueues, { userId: user.id, queueId: ownQueue.id });
    const other = await t.make.company();
    const foreign = await t.make.queue(other.company.id);
    const response = await asAdmin.put(`/users/${user.id}`, { queueIds: [foreign.id] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('ERR_VALIDATION');
    expect(await linkedQueues(user.id)).toEqual([ownQueue.id]);
  });

  it('refuses an email another user has, in any company', async () => {
    const { user, asUser } = await company();
    const other = await t.make.company();
    const response = await asUser.put(`/users/${user.id}`, { email: other.admin.email });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_DUPLICATED_EMAIL' });
    expect((await row(user.id))!.email).toBe(user.email);
    // Its own email, in another case, is not a duplicate.
    const same = await asUser.put(`/users/${user.id}`, { email: user.email.toUpperCase() });
    expect(same.statusCode).toBe(200);
  });

  it('validates the form with the spec messages', async () => {
    const { user, asAdmin } = await company();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'A' }, 'body.name', 'Too Short!'],
      [{ name: 'x'.repeat(51) }, 'body.name', 'Too Long!'],
      [{ email: 'nope' }, 'body.email', 'Invalid email'],
      [{ password: '1234' }, 'body.password', expect.any(String)],
      [{ password: 'p'.repeat(51) }, 'body.password', expect.any(String)],
    ];
    for (const [body, path, message] of cases) {
      const response = await asAdmin.put(`/users/${user.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldMessages(response.json())[path]).toEqual(message);
    }
    expect((await row(user.id))!.name).toBe('Plain Agent');
  });

  it('keeps the password when an empty one is sent', async () => {
    const { user, asAdmin } = await company();
    const before = (await row(user.id))!.password_hash;
    const response = await asAdmin.put(`/users/${user.id}`, { name: 'Kept', password: '' });
    expect(response.statusCode).toBe(200);
    expect((await row(user.id))!.password_hash).toBe(before);
  });

  it("ends the user's sessions when an admin changes its password", async () => {
    const { user, userToken, adminToken, asAdmin } = await company();
    const response = await asAdmin.put(`/users/${user.id}`, { password: 'reset-by-admin' });
    expect(response.statusCode).toBe(200);
    expect((await t.as(userToken).get('/auth/me')).statusCode).toBe(401);
    expect((await t.as(adminToken).get('/auth/me')).statusCode).toBe(200);
    await expect(t.login(user.email, PASSWORD)).rejects.toThrow(/401/);
    expect((await t.login(user.email, 'reset-by-admin')).body.user.id).toBe(user.id);
  });

  it('keeps the sessions when an admin edits other fields', async () => {
    const { user, userToken, asAdmin } = await company();
    expect((await asAdmin.put(`/users/${user.id}`, { name: 'Only Name' })).statusCode).toBe(200);
    expect((await t.as(userToken).get('/auth/me')).statusCode).toBe(200);
  });
});

describe('DELETE /users/:id', () => {
  it('answers 401 without a token', async () => {
    const { user } = await company();
    expect((await anonymous('DELETE', `/users/${user.id}`)).statusCode).toBe(401);
    expect(await row(user.id)).toBeDefined();
  });

  it('is for admins: a user gets 403', async () => {
    const { admin, asUser } = await company();
    const response = await asUser.delete(`/users/${admin.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await row(admin.id)).toBeDefined();
  });

  it('deletes the user, ends its sessions, puts its open tickets back to pending and announces it', async () => {
    const { company: own, user, userToken, db, asAdmin } = await company();
    const queue = await t.make.queue(own.id);
    const [c1, c2] = await db
      .insert(contacts, [
        { name: 'Contact One', number: '5511900000001' },
        { name: 'Contact Two', number: '5511900000002' },
      ])
      .returning({ id: contacts.id });
    const [open, closed] = await db
      .insert(tickets, [
        { contactId: c1!.id, status: 'open', userId: user.id, queueId: queue.id },
        { contactId: c2!.id, status: 'closed', userId: user.id, queueId: queue.id },
      ])
      .returning({ id: tickets.id });

    const response = await asAdmin.delete(`/users/${user.id}`);
    expect(response.statusCode).toBe(204);
    expect(await row(user.id)).toBeUndefined();
    expect((await t.as(userToken).get('/auth/me')).statusCode).toBe(401);
    const [reopened] = await db.selectFrom(tickets, eq(tickets.id, open!.id));
    expect(reopened).toMatchObject({ status: 'pending', userId: null, queueId: queue.id });
    const [stillClosed] = await db.selectFrom(tickets, eq(tickets.id, closed!.id));
    expect(stillClosed).toMatchObject({ status: 'closed' });
    expect(t.emitted).toContainEqual({
      event: `company-${own.id}-user`,
      payload: { action: 'delete', userId: user.id },
    });
    expect((await asAdmin.delete(`/users/${user.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another company's user and deletes nothing", async () => {
    const { asAdmin } = await company();
    const other = await t.make.company();
    const victim = await t.make.user(other.company.id);
    const otherDb = new TenantDb(t.database.db, other.company.id);
    const [contact] = await otherDb
      .insert(contacts, { name: 'Their Contact', number: '5511911111111' })
      .returning({ id: contacts.id });
    const [ticket] = await otherDb
      .insert(tickets, { contactId: contact!.id, status: 'open', userId: victim.id })
      .returning({ id: tickets.id });
    const response = await asAdmin.delete(`/users/${victim.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    expect(await row(victim.id)).toBeDefined();
    const [untouched] = await otherDb.selectFrom(tickets, eq(tickets.id, ticket!.id));
    expect(untouched).toMatchObject({ status: 'open', userId: victim.id });
  });

  it('does not let an admin delete itself', async () => {
    const { admin, adminToken, asAdmin } = await company();
    const response = await asAdmin.delete(`/users/${admin.id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'ERR_CANNOT_DELETE_SELF' });
    expect(await row(admin.id)).toBeDefined();
    expect((await t.as(adminToken).get('/auth/me')).statusCode).toBe(200);
  });
});

describe('the super user', () => {
  it('cannot be edited or deleted by an admin of its own company', async () => {
    const platform = await t.make.company({ super: true });
    const otherAdmin = await t.make.user(platform.company.id, { profile: 'admin' });
    const { token } = await t.login(otherAdmin.email);
    const before = await row(platform.admin.id);
    const edit = await t.as(token).put(`/users/${platform.admin.id}`, {
      email: 'taken-over@example.com',
      password: 'taken-over',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const removal = await t.as(token).delete(`/users/${platform.admin.id}`);
    expect(removal.statusCode).toBe(403);
    expect(await row(platform.admin.id)).toEqual(before);
    // The super user still edits itself.
    const { token: superToken } = await t.login(platform.admin.email);
    const own = await t.as(superToken).put(`/users/${platform.admin.id}`, { name: 'Platform' });
    expect(own.statusCode).toBe(200);
  });
});
