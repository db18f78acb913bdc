import {
  type CompanySchedule,
  DEFAULT_SCHEDULES,
  DEFAULT_SETTINGS,
  TRIAL_DAYS,
  type Weekday,
} from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { closeSockets, socketFor } from '../../../test/inbox';
import { settings } from '../../db/schema';
import { TenantDb } from '../../db/tenant';

let t: TestServer;
let platform: Awaited<ReturnType<TestServer['make']['company']>>;
let superToken: string;
beforeAll(async () => {
  t = await startTestServer();
  // The first super user's company holds the platform settings ('userCreation').
  platform = await t.make.company({ super: true, name: 'Platform Owner' });
  superToken = (await t.login(platform.admin.email)).token;
});
afterAll(() => t.stop());

const asSuper = () => t.as(superToken);

let address = 0;
/** Each sign-up from its own address unless told, so the per-address limit stays out of the way. */
const signup = (payload: object, remoteAddress?: string) => {
  address += 1;
  return t.app.inject({
    method: 'POST',
    url: '/companies/cadastro',
    payload,
    remoteAddress: remoteAddress ?? `10.20.${Math.floor(address / 250)}.${address % 250}`,
  });
};

let sequence = 0;
const signupBody = (overrides: Record<string, unknown> = {}) => {
  sequence += 1;
  return {
    name: `Signup Co ${sequence}`,
    email: `owner${sequence}-${Date.now()}@signup.example.com`,
    phone: '(11) 99999-8888',
    password: 'owner-pass',
    planId: 0,
    recurrence: 'MENSAL',
    dueDate: '2099-12-31',
    status: 't',
    campaignsEnabled: true,
    ...overrides,
  };
};

const anonymous = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}) });

/** A company with its admin and a plain user, both signed in. */
async function tenant() {
  const { company, admin } = await t.make.company();
  const user = await t.make.user(company.id);
  const [a, u] = await Promise.all([t.login(admin.email), t.login(user.email)]);
  return { company, admin, user, asAdmin: t.as(a.token), asUser: t.as(u.token) };
}

async function companyRow(id: number) {
  const { rows } = await t.database.db.execute<{
    id: number;
    name: string;
    email: string | null;
    phone: string | null;
    plan_id: number;
    status: boolean;
    due_date: string | null;
    trial_expiration: string | null;
    schedules: unknown;
  }>(sql`select * from companies where id = ${id}`);
  return rows[0];
}

async function countWhere(table: 'users' | 'companies', column: 'email' | 'name', value: string) {
  const { rows } = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where lower(${sql.identifier(column)}) = lower(${value})`,
  );
  return rows[0]!.n;
}

const dateIn = (days: number, from = Date.now()) =>
  new Date(from + days * 86_400_000).toISOString().slice(0, 10);

describe('POST /companies/cadastro', () => {
  it('creates a company on a 3-day trial, whatever dates and status are sent', async () => {
    const plan = await t.make.plan({ name: 'Trial plan' });
    const body = signupBody({ planId: plan.id, dueDate: '2099-12-31', status: false });
    const before = Date.now();
    const response = await signup(body);
    expect(response.statusCode).toBe(201);
    const company = response.json();
    expect(company).toEqual({
      id: expect.any(Number),
      name: body.name,
      email: body.email,
      phone: '11999998888',
      planId: plan.id,
      status: true,
      dueDate: expect.any(String),
      recurrence: 'MENSAL',
      schedules: expect.any(Array),
      billingName: null,
      addressZipCode: null,
      addressStreet: null,
      addressState: null,
      addressCity: null,
      addressDistrict: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect([dateIn(TRIAL_DAYS, before), dateIn(TRIAL_DAYS)]).toContain(company.dueDate);
    expect(company.schedules).toHaveLength(7);
    expect(response.body).not.toMatch(/password/i);

    const stored = (await companyRow(company.id))!;
    expect(stored.due_date).toBe(company.dueDate);
    const trialMs = new Date(stored.trial_expiration!).getTime() - before;
    expect(trialMs).toBeGreaterThan(TRIAL_DAYS * 86_400_000 - 60_000);
    expect(trialMs).toBeLessThan(TRIAL_DAYS * 86_400_000 + 60_000);
  });

  it("takes the sign-up link's companyId but always creates a company of its own", async () => {
    const plan = await t.make.plan();
    const existing = await tenant();
    const body = signupBody({ planId: plan.id, companyId: existing.company.id });
    const response = await signup(body);
    expect(response.statusCode).toBe(201);
    const created = response.json().id;
    expect(created).not.toBe(existing.company.id);

    // The new admin belongs to the new company only, and sees nothing of the other one.
    const session = await t.login(body.email, body.password);
    expect(session.body.user).toMatchObject({ companyId: created, profile: 'admin' });
    const asNewAdmin = t.as(session.token);
    expect((await asNewAdmin.get(`/users/${existing.admin.id}`)).statusCode).toBe(404);
    const users = (await asNewAdmin.get('/users/list')).json();
    expect(users.map((user: { email: string }) => user.email)).toEqual([body.email]);
    const { rows } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from users where company_id = ${existing.company.id}`,
    );
    expect(rows[0]!.n).toBe(2);

    const bad = await signup(signupBody({ planId: plan.id, companyId: 'x' }));
    expect(bad.statusCode).toBe(400);
  });

  it('gives the company its default settings and an admin who can sign in', async () => {
    const plan = await t.make.plan();
    const body = signupBody({ planId: plan.id, email: 'New.Owner@Example.com' });
    const response = await signup(body);
    expect(response.statusCode).toBe(201);
    const companyId = response.json().id;
    const stored = await new TenantDb(t.database.db, companyId)
      .select({ key: settings.key, value: settings.value })
      .from(settings);
    expect(Object.fromEntries(stored.map((s) => [s.key, s.value]))).toEqual(DEFAULT_SETTINGS);

    const session = await t.login('new.owner@example.com', 'owner-pass');
    expect(session.body.user).toMatchObject({
      email: 'new.owner@example.com',
      profile: 'admin',
      super: false,
      companyId,
      company: { id: companyId, plan: { id: plan.id } },
    });
  });

  it('keeps campaigns off when the sign-up says so', async () => {
    const plan = await t.make.plan();
    const response = await signup(signupBody({ planId: plan.id, campaignsEnabled: false }));
    expect(response.statusCode).toBe(201);
    const [setting] = await new TenantDb(t.database.db, response.json().id)
      .select({ value: settings.value })
      .from(settings, eq(settings.key, 'campaignsEnabled'));
    expect(setting!.value).toBe('false');
  });

  it('validates the form like the user form, the phone mask and the plan', async () => {
    const plan = await t.make.plan();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'A' }, 'body.name', 'Too Short!'],
      [{ name: 'n'.repeat(51) }, 'body.name', 'Too Long!'],
      [{ email: 'not-an-email' }, 'body.email', 'Invalid email'],
      [{ password: '1234' }, 'body.password', 'Too Short!'],
      [{ password: 'p'.repeat(51) }, 'body.password', 'Too Long!'],
      [{ phone: '(11) 99999-99999' }, 'body.phone', 'Too Long!'],
      [{ phone: '119999999999' }, 'body.phone', 'Too Long!'],
      [{ phone: '(11) 9999' }, 'body.phone', 'Too Short!'],
      [{ phone: undefined }, 'body.phone', 'Required'],
      [{ phone: 'call me at 11 3333 4444' }, 'body.phone', expect.any(String)],
      [{ phone: `(11) 99999-8888${' '.repeat(100_000)}` }, 'body.phone', 'Too Long!'],
      [{ planId: undefined }, 'body.planId', expect.any(String)],
      [{ planId: 'abc' }, 'body.planId', expect.any(String)],
      [{ recurrence: 'SEMANAL' }, 'body.recurrence', expect.any(String)],
      [{ campaignsEnabled: 'yes' }, 'body.campaignsEnabled', expect.any(String)],
    ];
    for (const [overrides, path, message] of cases) {
      const body = signupBody({ planId: plan.id, ...overrides });
      const response = await signup(body);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
      const first = response.json().fields.find((f: { path: string }) => f.path === path);
      expect(first?.message, JSON.stringify(overrides)).toEqual(message);
      expect(await countWhere('companies', 'name', body.name)).toBe(0);
    }
    // A field the form does not have is ignored: it cannot make the new admin a super user.
    const extra = signupBody({ planId: plan.id, super: true, profile: 'super' });
    expect((await signup(extra)).statusCode).toBe(201);
    const { rows } = await t.database.db.execute<{ super: boolean; profile: string }>(
      sql`select super, profile from users where email = ${extra.email}`,
    );
    expect(rows).toEqual([{ super: false, profile: 'admin' }]);
    // Ten digits (a landline) and eleven digits with the mask are both accepted.
    for (const phone of ['(11) 3333-4444', '(11) 99999-9999']) {
      expect((await signup(signupBody({ planId: plan.id, phone }))).statusCode).toBe(201);
    }
  });

  it('refuses a company name in use with 409 ERR_DUPLICATED_COMPANY and creates no user', async () => {
    const plan = await t.make.plan();
    const existing = await t.make.company({ name: 'Taken Name Ltda' });
    const body = signupBody({ planId: plan.id, name: 'Taken Name Ltda' });
    const response = await signup(body);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_DUPLICATED_COMPANY' });
    expect(await countWhere('users', 'email', body.email)).toBe(0);
    expect(await countWhere('companies', 'name', 'Taken Name Ltda')).toBe(1);
    expect((await companyRow(existing.company.id))!.email).toBe(existing.admin.email);
  });

  it('answers 409, not 500, to two sign-ups of one company name at once', async () => {
    const plan = await t.make.plan();
    const name = `Racing Co ${Date.now()}`;
    const responses = await Promise.all([
      signup(signupBody({ planId: plan.id, name })),
      signup(signupBody({ planId: plan.id, name })),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await countWhere('companies', 'name', name)).toBe(1);
    const email = `racing${Date.now()}@example.com`;
    const sameEmail = await Promise.all([
      signup(signupBody({ planId: plan.id, email })),
      signup(signupBody({ planId: plan.id, email })),
    ]);
    expect(sameEmail.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await countWhere('users', 'email', email)).toBe(1);
  });

  it('refuses an email any user has with 409 ERR_DUPLICATED_EMAIL and creates no company', async () => {
    const plan = await t.make.plan();
    const other = await t.make.company();
    const body = signupBody({ planId: plan.id, email: other.admin.email.toUpperCase() });
    const response = await signup(body);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'ERR_DUPLICATED_EMAIL' });
    expect(await countWhere('companies', 'name', body.name)).toBe(0);
  });

  it('answers 404 ERR_NO_PLAN_FOUND for an unknown plan and creates nothing', async () => {
    const body = signupBody({ planId: 987_654 });
    const response = await signup(body);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    expect(await countWhere('companies', 'name', body.name)).toBe(0);
    expect(await countWhere('users', 'email', body.email)).toBe(0);
  });

  it("is closed with 403 ERR_USER_CREATION_DISABLED while the platform's userCreation is disabled", async () => {
    const plan = await t.make.plan();
    const switchTo = (value: string) =>
      asSuper()
        .put('/settings/userCreation', { value })
        .then((r) => r.statusCode);
    expect(await switchTo('disabled')).toBe(200);
    try {
      const body = signupBody({ planId: plan.id });
      const response = await signup(body);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_USER_CREATION_DISABLED' });
      expect(await countWhere('companies', 'name', body.name)).toBe(0);
    } finally {
      expect(await switchTo('enabled')).toBe(200);
    }
    expect((await signup(signupBody({ planId: plan.id }))).statusCode).toBe(201);
  });

  it('ignores userCreation set on a company that is not the platform', async () => {
    const plan = await t.make.plan();
    const { company } = await t.make.company();
    await new TenantDb(t.database.db, company.id).update(
      settings,
      { value: 'disabled' },
      eq(settings.key, 'userCreation'),
    );
    expect((await signup(signupBody({ planId: plan.id }))).statusCode).toBe(201);
  });

  it('allows five sign-ups an hour from one address: the sixth gets 429', async () => {
    const plan = await t.make.plan();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await signup(signupBody({ planId: plan.id }), '10.99.0.1')).statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = signupBody({ planId: plan.id });
    const response = await signup(limited, '10.99.0.1');
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ error: 'ERR_TOO_MANY_REQUESTS' });
    expect(await countWhere('companies', 'name', limited.name)).toBe(0);
    // Another address is not held back.
    expect((await signup(signupBody({ planId: plan.id }), '10.99.0.2')).statusCode).toBe(201);
  });
});

describe('GET /companies', () => {
  it('answers 401 without a token and 403 to admins', async () => {
    expect((await anonymous('GET', '/companies')).statusCode).toBe(401);
    const { asAdmin } = await tenant();
    const response = await asAdmin.get('/companies');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('answers the super user a page of companies with count and hasMore, searchable', async () => {
    for (let i = 0; i < 21; i++) await t.make.company({ name: `Paged ${i} Comércio` });
    const first = await asSuper().get('/companies');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.companies).toHaveLength(20);
    expect(body.hasMore).toBe(true);
    expect(body.count).toBeGreaterThanOrEqual(22);
    expect(first.body).not.toMatch(/password/i);

    const search = (
      await asSuper().get(`/companies?searchParam=${encodeURIComponent('comércio')}`)
    ).json();
    expect(search.count).toBe(21);
    const rest = (
      await asSuper().get(`/companies?searchParam=${encodeURIComponent('comércio')}&pageNumber=2`)
    ).json();
    expect(rest).toMatchObject({ count: 21, hasMore: false });
    expect(rest.companies).toHaveLength(1);
    const percent = (
      await asSuper().get(`/companies?searchParam=${encodeURIComponent('%')}`)
    ).json();
    expect(percent.count).toBe(0);
  });
});

describe('GET /companies/list', () => {
  it('answers 401 without a token and 403 to admins', async () => {
    expect((await anonymous('GET', '/companies/list')).statusCode).toBe(401);
    const { asAdmin } = await tenant();
    expect((await asAdmin.get('/companies/list')).statusCode).toBe(403);
  });

  it('answers the super user every company', async () => {
    const { company } = await t.make.company();
    const response = await asSuper().get('/companies/list');
    expect(response.statusCode).toBe(200);
    const ids = response.json().map((c: { id: number }) => c.id);
    expect(ids).toContain(company.id);
    expect(ids).toContain(platform.company.id);
  });
});

describe('GET /companies/:id', () => {
  it('answers 401 without a token', async () => {
    const { company } = await t.make.company();
    expect((await anonymous('GET', `/companies/${company.id}`)).statusCode).toBe(401);
  });

  it('answers the own company to its admin and users', async () => {
    const { company, asAdmin, asUser } = await tenant();
    for (const as of [asAdmin, asUser]) {
      const response = await as.get(`/companies/${company.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: company.id, name: company.name });
    }
  });

  it("answers 404 for another company's id unless the caller is super", async () => {
    const { asAdmin } = await tenant();
    const other = await t.make.company();
    const response = await asAdmin.get(`/companies/${other.company.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
    const bySuper = await asSuper().get(`/companies/${other.company.id}`);
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().id).toBe(other.company.id);
    expect((await asSuper().get('/companies/999999')).statusCode).toBe(404);
  });
});

describe('GET /companies/listPlan/:companyId', () => {
  it('answers 401 without a token', async () => {
    expect((await anonymous('GET', `/companies/listPlan/${platform.company.id}`)).statusCode).toBe(
      401,
    );
  });

  it('answers the own company with its plan, to admins and users', async () => {
    const plan = await t.make.plan({ name: 'Listed plan', users: 7, useKanban: true });
    const { company, admin } = await t.make.company({ planId: plan.id });
    const { token } = await t.login(admin.email);
    const response = await t.as(token).get(`/companies/listPlan/${company.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: company.id,
      planId: plan.id,
      plan: { id: plan.id, name: 'Listed plan', users: 7, useKanban: true, useCampaigns: false },
    });
  });

  it("answers 404 for another company's id, except to the super user", async () => {
    const { asAdmin, asUser } = await tenant();
    const other = await t.make.company();
    for (const as of [asAdmin, asUser]) {
      const response = await as.get(`/companies/listPlan/${other.company.id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
    }
    const bySuper = await asSuper().get(`/companies/listPlan/${other.company.id}`);
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().plan.id).toBe(other.company.planId);
  });
});

describe('POST /companies', () => {
  const body = (overrides: Record<string, unknown> = {}) => {
    sequence += 1;
    return {
      name: `Created Co ${sequence}`,
      email: `created${sequence}-${Date.now()}@example.com`,
      planId: 0,
      ...overrides,
    };
  };

  it('answers 401 without a token and 403 to admins, creating nothing', async () => {
    const plan = await t.make.plan();
    const payload = body({ planId: plan.id });
    expect((await anonymous('POST', '/companies', payload)).statusCode).toBe(401);
    const { asAdmin } = await tenant();
    const response = await asAdmin.post('/companies', payload);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await countWhere('companies', 'name', payload.name)).toBe(0);
  });

  it('lets the super user create a company with its settings and first admin', async () => {
    const plan = await t.make.plan();
    const payload = body({
      planId: plan.id,
      phone: '11 3333-4444',
      dueDate: '2031-05-20',
      recurrence: 'ANUAL',
      password: 'first-admin',
    });
    const response = await asSuper().post('/companies', payload);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: payload.name,
      email: payload.email,
      planId: plan.id,
      dueDate: '2031-05-20',
      recurrence: 'ANUAL',
      status: true,
    });
    expect(response.body).not.toMatch(/password/i);
    const companyId = response.json().id;
    expect(await new TenantDb(t.database.db, companyId).count(settings)).toBe(
      Object.keys(DEFAULT_SETTINGS).length,
    );
    const session = await t.login(payload.email, 'first-admin');
    expect(session.body.user).toMatchObject({ profile: 'admin', super: false, companyId });
  });

  it('creates no user without a password', async () => {
    const plan = await t.make.plan();
    const payload = body({ planId: plan.id });
    const response = await asSuper().post('/companies', payload);
    expect(response.statusCode).toBe(201);
    expect(response.json().dueDate).toBeNull();
    expect(await countWhere('users', 'email', payload.email)).toBe(0);
  });

  it('refuses a duplicate name, a taken admin email and an unknown plan', async () => {
    const plan = await t.make.plan();
    const other = await t.make.company();
    const name = await asSuper().post(
      '/companies',
      body({ planId: plan.id, name: other.company.name }),
    );
    expect(name.statusCode).toBe(409);
    expect(name.json()).toEqual({ error: 'ERR_DUPLICATED_COMPANY' });

    const taken = body({ planId: plan.id, email: other.admin.email, password: 'first-admin' });
    const email = await asSuper().post('/companies', taken);
    expect(email.statusCode).toBe(409);
    expect(email.json()).toEqual({ error: 'ERR_DUPLICATED_EMAIL' });
    expect(await countWhere('companies', 'name', taken.name)).toBe(0);

    const unknown = body({ planId: 987_654 });
    const plan404 = await asSuper().post('/companies', unknown);
    expect(plan404.statusCode).toBe(404);
    expect(plan404.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    expect(await countWhere('companies', 'name', unknown.name)).toBe(0);
  });

  it('validates the form', async () => {
    const plan = await t.make.plan();
    for (const overrides of [
      { email: undefined },
      { email: 'nope' },
      { planId: undefined },
      { name: 'A' },
      { dueDate: 'not a date' },
      { password: '123' },
      { status: 'yes' },
      { campaignsEnabled: 'yes' },
    ]) {
      const payload = body({ planId: plan.id, ...overrides });
      const response = await asSuper().post('/companies', payload);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
    }
  });
});

describe('PUT /companies/:id', () => {
  it('answers 401 without a token and 403 to an admin, even on its own company', async () => {
    const { company, asAdmin } = await tenant();
    const before = await companyRow(company.id);
    expect((await anonymous('PUT', `/companies/${company.id}`, { name: 'X Co' })).statusCode).toBe(
      401,
    );
    const response = await asAdmin.put(`/companies/${company.id}`, {
      dueDate: '2199-01-01',
      status: true,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await companyRow(company.id)).toEqual(before);
  });

  it('lets the super user change name, plan, dates, status and campaigns', async () => {
    const { company } = await t.make.company();
    const plan = await t.make.plan();
    const response = await asSuper().put(`/companies/${company.id}`, {
      id: 999,
      name: 'Renamed Company',
      planId: plan.id,
      dueDate: '2030-01-31T12:00:00.000Z',
      status: false,
      recurrence: 'TRIMESTRAL',
      campaignsEnabled: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: company.id,
      name: 'Renamed Company',
      planId: plan.id,
      dueDate: '2030-01-31',
      status: false,
      recurrence: 'TRIMESTRAL',
    });
    const [setting] = await new TenantDb(t.database.db, company.id)
      .select({ value: settings.value })
      .from(settings, eq(settings.key, 'campaignsEnabled'));
    expect(setting!.value).toBe('false');
    expect((await companyRow(company.id))!.name).toBe('Renamed Company');
  });

  it('keeps the billing name and address, and answers them with every field of the company', async () => {
    const plan = await t.make.plan();
    const created = await asSuper().post('/companies', {
      name: `Billing Co ${Date.now()}`,
      email: `billing-${Date.now()}@example.com`,
      planId: plan.id,
      billingName: 'Billing Co Ltda',
      addressZipCode: '01001-000',
      addressStreet: 'Praça da Sé, 1',
      addressState: 'SP',
      addressCity: 'São Paulo',
      addressDistrict: 'Sé',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      billingName: 'Billing Co Ltda',
      addressZipCode: '01001-000',
      addressStreet: 'Praça da Sé, 1',
      addressState: 'SP',
      addressCity: 'São Paulo',
      addressDistrict: 'Sé',
    });
    const id = created.json().id as number;
    const updated = await asSuper().put(`/companies/${id}`, {
      addressCity: 'Campinas',
      billingName: '',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      addressCity: 'Campinas',
      billingName: null,
      addressState: 'SP',
    });
    const read = await asSuper().get(`/companies/${id}`);
    expect(Object.keys(read.json()).sort()).toEqual(
      [
        'id',
        'name',
        'email',
        'phone',
        'planId',
        'status',
        'dueDate',
        'recurrence',
        'schedules',
        'billingName',
        'addressZipCode',
        'addressStreet',
        'addressState',
        'addressCity',
        'addressDistrict',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
  });

  it('refuses an unknown plan, a name in use, an unknown company and bad fields', async () => {
    const { company } = await t.make.company();
    const other = await t.make.company();
    const before = await companyRow(company.id);
    const plan = await asSuper().put(`/companies/${company.id}`, { planId: 987_654 });
    expect(plan.statusCode).toBe(404);
    expect(plan.json()).toEqual({ error: 'ERR_NO_PLAN_FOUND' });
    const name = await asSuper().put(`/companies/${company.id}`, { name: other.company.name });
    expect(name.statusCode).toBe(409);
    expect(name.json()).toEqual({ error: 'ERR_DUPLICATED_COMPANY' });
    const missing = await asSuper().put('/companies/987654', { name: 'Ghost Co' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
    for (const bad of [{ dueDate: '31/01/2030' }, { email: 'nope' }, { status: 'yes' }]) {
      const response = await asSuper().put(`/companies/${company.id}`, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await companyRow(company.id)).toEqual(before);
  });
});

describe('PUT /companies/:id/schedules', () => {
  /** A week as the original client sends it: Portuguese names, Sunday closed with empty times. */
  const week = (changes: Partial<Record<Weekday, Partial<CompanySchedule>>> = {}) =>
    DEFAULT_SCHEDULES.map((day) => ({
      ...day,
      ...(day.weekdayEn === 'sunday' ? { startTime: '', endTime: '' } : {}),
      ...changes[day.weekdayEn],
    }));
  const saved = (changes: Partial<Record<Weekday, Partial<CompanySchedule>>> = {}) =>
    week({ sunday: { startTime: '00:00', endTime: '00:00' }, ...changes });

  it('answers 401 without a token and 403 to a plain user, changing nothing', async () => {
    const { company, asUser } = await tenant();
    const before = await companyRow(company.id);
    const body = { id: company.id, schedules: week() };
    expect((await anonymous('PUT', `/companies/${company.id}/schedules`, body)).statusCode).toBe(
      401,
    );
    const response = await asUser.put(`/companies/${company.id}/schedules`, body);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await companyRow(company.id)).toEqual(before);
  });

  it("takes the original client's body, answers the saved company and tells the company's admins", async () => {
    const { company, asAdmin } = await tenant();
    const schedules = week({ saturday: { startTime: '09:00', endTime: '13:30' } });
    const response = await asAdmin.put(`/companies/${company.id}/schedules`, {
      id: company.id,
      schedules,
    });
    expect(response.statusCode, response.body).toBe(200);
    const expected = saved({ saturday: { startTime: '09:00', endTime: '13:30' } });
    expect(response.json()).toMatchObject({
      id: company.id,
      name: company.name,
      schedules: expected,
    });
    expect((await companyRow(company.id))!.schedules).toEqual(expected);
    // read back the way the settings page reads it
    const read = await asAdmin.get(`/companies/${company.id}`);
    expect(read.json().schedules).toEqual(expected);
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-company`,
      payload: { action: 'update', company: response.json() },
    });
  });

  it('sends the change to the admins sockets only', async () => {
    const { company, admin } = await t.make.company();
    const user = await t.make.user(company.id);
    // a new sign-in ends the earlier session, so each person signs in once here
    const [a, u] = await Promise.all([t.login(admin.email), t.login(user.email)]);
    const asAdmin = t.as(a.token);
    const [adminSocket, userSocket] = await Promise.all([
      socketFor(t, a.token),
      socketFor(t, u.token),
    ]);
    const heard: Record<string, unknown[]> = { admin: [], user: [] };
    adminSocket.on(`company-${company.id}-company`, (payload) => heard.admin!.push(payload));
    userSocket.on(`company-${company.id}-company`, (payload) => heard.user!.push(payload));
    userSocket.on(`company-${company.id}-user`, (payload) => heard.user!.push(payload));
    const response = await asAdmin.put(`/companies/${company.id}/schedules`, {
      schedules: week({ monday: { endTime: '17:00' } }),
    });
    expect(response.statusCode).toBe(200);
    await expect.poll(() => heard.admin!.length).toBe(1);
    expect(heard.admin![0]).toMatchObject({
      action: 'update',
      company: { id: company.id, schedules: saved({ monday: { endTime: '17:00' } }) },
    });
    // a later event the user does hear arrives after the one it must not hear
    await asAdmin.put(`/users/${user.id}`, { name: 'Renamed agent' });
    await expect.poll(() => heard.user!.length).toBe(1);
    expect(heard.user![0]).toMatchObject({ action: 'update', user: { id: user.id } });
    closeSockets();
  });

  it('saves the days Monday first under their own names, whatever order and names are sent', async () => {
    const { company, asAdmin } = await tenant();
    const shuffled = [...week()].reverse().map((day) => ({ ...day, weekday: 'dia' }));
    const response = await asAdmin.put(`/companies/${company.id}/schedules`, {
      schedules: shuffled,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().schedules).toEqual(saved());
  });

  it('answers the default hours to a company that stored none', async () => {
    const { company, asAdmin, asUser } = await tenant();
    await t.database.db.execute(
      sql`update companies set schedules = '[]' where id = ${company.id}`,
    );
    for (const as of [asAdmin, asUser]) {
      const response = await as.get(`/companies/${company.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().schedules).toEqual([
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
        { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
      ]);
    }
  });

  it("answers 404 for another company's id and leaves its hours alone", async () => {
    const { asAdmin } = await tenant();
    const other = await t.make.company();
    const before = await companyRow(other.company.id);
    const body = { id: other.company.id, schedules: week() };
    const response = await asAdmin.put(`/companies/${other.company.id}/schedules`, body);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
    expect((await asAdmin.get(`/companies/${other.company.id}`)).statusCode).toBe(404);
    expect(await companyRow(other.company.id)).toEqual(before);
    expect(t.emitted.map((e) => e.event)).not.toContain(`company-${other.company.id}-company`);
    // The super user may set them.
    expect((await asSuper().put(`/companies/${other.company.id}/schedules`, body)).statusCode).toBe(
      200,
    );
  });

  it('refuses with 400 ERR_VALIDATION times that are not HH:MM, an end not after the start and a day missing or twice', async () => {
    const { company, asAdmin } = await tenant();
    const before = await companyRow(company.id);
    const cases: [string, unknown, string][] = [
      ['hour 25', week({ monday: { startTime: '25:00' } }), 'body.schedules.0.startTime'],
      ['no colon', week({ monday: { endTime: '1800' } }), 'body.schedules.0.endTime'],
      ['9h', week({ tuesday: { endTime: '9h' } }), 'body.schedules.1.endTime'],
      [
        'end before start',
        week({ friday: { startTime: '18:00', endTime: '08:00' } }),
        'body.schedules.4.endTime',
      ],
      [
        'end equal to start',
        week({ friday: { startTime: '10:00', endTime: '10:00' } }),
        'body.schedules.4.endTime',
      ],
      [
        'open until 00:00',
        week({ saturday: { startTime: '08:00', endTime: '00:00' } }),
        'body.schedules.5.endTime',
      ],
      ['end without start', week({ saturday: { startTime: '' } }), 'body.schedules.5.startTime'],
      ['start without end', week({ sunday: { startTime: '08:00' } }), 'body.schedules.6.endTime'],
      [
        'unknown day',
        week({ monday: { weekdayEn: 'funday' as Weekday } }),
        'body.schedules.0.weekdayEn',
      ],
      [
        'weekday not text',
        week({ monday: { weekday: 5 as unknown as string } }),
        'body.schedules.0.weekday',
      ],
      ['six days', week().slice(0, 6), 'body.schedules'],
      ['monday twice', [...week().slice(0, 6), week()[0]], 'body.schedules'],
      ['eight days', [...week(), week()[0]], 'body.schedules'],
      ['none', [], 'body.schedules'],
      ['not a list', 'monday', 'body.schedules'],
    ];
    for (const [label, schedules, path] of cases) {
      const response = await asAdmin.put(`/companies/${company.id}/schedules`, { schedules });
      expect(response.statusCode, label).toBe(400);
      const body = response.json();
      expect(body.error, label).toBe('ERR_VALIDATION');
      expect(
        body.fields.map((f: { path: string }) => f.path),
        label,
      ).toContain(path);
    }
    expect(await companyRow(company.id)).toEqual(before);
  });

  it('takes a closed day as 00:00 to 00:00 and a day open until 23:59', async () => {
    const { company, asAdmin } = await tenant();
    const response = await asAdmin.put(`/companies/${company.id}/schedules`, {
      schedules: week({
        monday: { startTime: '00:00', endTime: '00:00' },
        tuesday: { startTime: '00:00', endTime: '23:59' },
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().schedules.slice(0, 2)).toEqual([
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '00:00', endTime: '00:00' },
      { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '00:00', endTime: '23:59' },
    ]);
  });
});

describe('DELETE /companies/:id', () => {
  it('answers 401 without a token and 403 to admins, deleting nothing', async () => {
    const { company } = await t.make.company();
    expect((await anonymous('DELETE', `/companies/${company.id}`)).statusCode).toBe(401);
    const { asAdmin, company: own } = await tenant();
    for (const id of [company.id, own.id]) {
      const response = await asAdmin.delete(`/companies/${id}`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      expect(await companyRow(id)).toBeDefined();
    }
  });

  it('lets the super user delete a company with its users, settings and queues', async () => {
    const { company, admin } = await t.make.company();
    await t.make.queue(company.id);
    const { token } = await t.login(admin.email);
    const response = await asSuper().delete(`/companies/${company.id}`);
    expect(response.statusCode).toBe(204);
    expect(await companyRow(company.id)).toBeUndefined();
    const { rows } = await t.database.db.execute<{ n: number }>(sql`
      select (select count(*) from users where company_id = ${company.id})
        + (select count(*) from settings where company_id = ${company.id})
        + (select count(*) from queues where company_id = ${company.id}) as n`);
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await t.as(token).get('/auth/me')).statusCode).toBe(401);
    expect((await asSuper().delete(`/companies/${company.id}`)).statusCode).toBe(404);
  });

  it('does not let the super user delete its own company', async () => {
    const response = await asSuper().delete(`/companies/${platform.company.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await companyRow(platform.company.id)).toBeDefined();
    expect((await asSuper().get('/auth/me')).statusCode).toBe(200);
  });
});

describe('answers', () => {
  it('never carry a password', async () => {
    const responses = await Promise.all([
      asSuper().get('/companies'),
      asSuper().get('/companies/list'),
      asSuper().get(`/companies/${platform.company.id}`),
      asSuper().get(`/companies/listPlan/${platform.company.id}`),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toMatch(/password|\$argon2/i);
    }
  });
});
