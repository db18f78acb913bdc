import {
  DEFAULT_SETTINGS,
  SECRET_SETTING_KEYS,
  SETTING_KEYS,
  type Setting,
  SUPER_SETTING_KEYS,
} from '@atendi/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_SECRETS_KEY, type TestServer } from '../../../test/harness';
import { settings } from '../../db/schema';
import { TenantDb } from '../../db/tenant';
import { openSecretSetting } from '../../platform/secrets';

let t: TestServer;
let platform: Awaited<ReturnType<TestServer['make']['company']>>;
let superToken: string;
beforeAll(async () => {
  t = await startTestServer();
  platform = await t.make.company({ super: true });
  superToken = (await t.login(platform.admin.email)).token;
});
afterAll(() => t.stop());

/** A company with its admin and a plain user, both signed in. */
async function tenant() {
  const { company, admin } = await t.make.company();
  const user = await t.make.user(company.id);
  const [a, u] = await Promise.all([t.login(admin.email), t.login(user.email)]);
  return {
    company,
    db: new TenantDb(t.database.db, company.id),
    asAdmin: t.as(a.token),
    asUser: t.as(u.token),
  };
}

async function stored(companyId: number, key: string) {
  const [row] = await new TenantDb(t.database.db, companyId)
    .select({ value: settings.value })
    .from(settings, eq(settings.key, key));
  return row?.value;
}

const SUPER_ONLY: readonly string[] = SUPER_SETTING_KEYS;

/** The defaults a company's admin or agent reads: none of the super user's. */
const companyDefaults = () =>
  Object.fromEntries(Object.entries(DEFAULT_SETTINGS).filter(([key]) => !SUPER_ONLY.includes(key)));

describe('GET /settings', () => {
  it('answers 401 without a token, and a plain user the settings its screens read', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/settings' })).statusCode).toBe(401);
    const { asUser } = await tenant();
    const response = await asUser.get('/settings');
    expect(response.statusCode).toBe(200);
    const list: Setting[] = response.json();
    expect(Object.fromEntries(list.map((s) => [s.key, s.value]))).toEqual(companyDefaults());
  });

  it("answers an admin its company's settings, without the super-only ones", async () => {
    const { company, db, asAdmin } = await tenant();
    await db.update(settings, { value: 'enabled' }, eq(settings.key, 'userRating'));
    const other = await t.make.company();
    await new TenantDb(t.database.db, other.company.id).update(
      settings,
      { value: 'company' },
      eq(settings.key, 'scheduleType'),
    );
    const response = await asAdmin.get('/settings');
    expect(response.statusCode).toBe(200);
    const list: { key: string; value: string }[] = response.json();
    const byKey = Object.fromEntries(list.map((s) => [s.key, s.value]));
    expect(byKey).toEqual({ ...companyDefaults(), userRating: 'enabled' });
    expect(list.map((s) => s.key)).not.toContain('asaas');
    expect(company.id).not.toBe(other.company.id);
  });

  it('answers the super user the platform settings too', async () => {
    const response = await t.as(superToken).get('/settings');
    expect(response.statusCode).toBe(200);
    const keys = response.json().map((s: { key: string }) => s.key);
    expect(keys).toContain('userCreation');
  });
});

describe('PUT /settings/:key', () => {
  it('answers 401 without a token and 403 to a plain user, changing nothing', async () => {
    const { company, asUser } = await tenant();
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/settings/userRating',
      payload: { value: 'enabled' },
    });
    expect(anonymous.statusCode).toBe(401);
    const response = await asUser.put('/settings/userRating', { value: 'enabled' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await stored(company.id, 'userRating')).toBe('disabled');
  });

  it("updates the admin's own company and announces it on company-{id}-settings", async () => {
    const { company, asAdmin } = await tenant();
    const other = await t.make.company();
    const response = await asAdmin.put('/settings/scheduleType', { value: 'company' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ key: 'scheduleType', value: 'company' });
    expect(await stored(company.id, 'scheduleType')).toBe('company');
    expect(await stored(other.company.id, 'scheduleType')).toBe('disabled');
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-settings`,
      payload: { action: 'update', setting: { key: 'scheduleType', value: 'company' } },
    });
  });

  it('accepts the values of each key and refuses the others with 400', async () => {
    const { company, asAdmin } = await tenant();
    const cases: [string, unknown, boolean][] = [
      ['userRating', 'enabled', true],
      ['userRating', 'on', false],
      ['scheduleType', 'disabled', true],
      ['scheduleType', 'queue', true],
      ['scheduleType', 'weekly', false],
      ['call', 'disabled', true],
      ['call', '', false],
      ['CheckMsgIsGroup', 'enabled', true],
      ['CheckMsgIsGroup', 'ENABLED', false],
      ['sendGreetingAccepted', 'enabled', true],
      ['sendMsgTransfTicket', 'enabled', true],
      ['sendMsgTransfTicket', 1, false],
      ['sendGreetingMessageOneQueues', 'disabled', true],
      ['chatBotType', 'text', true],
      ['chatBotType', 'list', false],
      ['timezone', 'America/Manaus', true],
      ['timezone', 'UTC', true],
      ['timezone', 'Mars/Olympus', false],
      ['timezone', 'EST', false],
      ['campaignsEnabled', false, true],
      ['campaignsEnabled', 'true', true],
      ['campaignsEnabled', 'yes', false],
      ['campaignsEnabled', null, false],
      ['viewclosed', 'enabled', true],
      ['viewclosed', 'sim', false],
      ['viewgroups', 'disabled', true],
      ['viewgroups', true, false],
      ['ipixc', 'https://ixc.provedor.example', true],
      ['ipixc', 'x'.repeat(501), false],
      ['ipmkauth', '', true],
      ['ipmkauth', 1, false],
      ['clientidmkauth', 'cliente-mk', true],
      ['clientidmkauth', 'x'.repeat(501), false],
    ];
    for (const [key, value, accepted] of cases) {
      const before = await stored(company.id, key);
      const response = await asAdmin.put(`/settings/${key}`, { value });
      const label = `${key}=${JSON.stringify(value)}`;
      if (accepted) {
        expect(response.statusCode, label).toBe(200);
        expect(response.json(), label).toEqual({ key, value: String(value) });
        expect(await stored(company.id, key), label).toBe(String(value));
      } else {
        expect(response.statusCode, label).toBe(400);
        expect(response.json().error, label).toBe('ERR_VALIDATION');
        expect(await stored(company.id, key), label).toBe(before);
      }
    }
    // every key a company's admin sets, the secrets apart (below)
    expect(new Set(cases.map(([key]) => key))).toEqual(
      new Set(
        SETTING_KEYS.filter(
          (key) => !SUPER_ONLY.includes(key) && !SECRET_SETTING_KEYS.includes(key),
        ),
      ),
    );
  });

  it("keeps a company's own secrets (the original's IXC token and MK-AUTH secret) sealed, answering a hint", async () => {
    const { company, asAdmin } = await tenant();
    const companySecrets = SECRET_SETTING_KEYS.filter((key) => !SUPER_ONLY.includes(key));
    expect(companySecrets.length).toBeGreaterThan(0);
    for (const key of companySecrets) {
      const plain = `${key}-valor-secreto-0123`;
      const saved = await asAdmin.put(`/settings/${key}`, { key, value: plain });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual({ key, value: `********${plain.slice(-4)}` });
      const sealed = await stored(company.id, key);
      expect(sealed).not.toContain('valor-secreto');
      expect(openSecretSetting(TEST_SECRETS_KEY, sealed)).toBe(plain);
      const listed = (await asAdmin.get('/settings')).json() as Setting[];
      expect(listed.find((setting) => setting.key === key)?.value).toBe(
        `********${plain.slice(-4)}`,
      );
      expect(JSON.stringify(t.emitted)).not.toContain('valor-secreto');
      const refused = await asAdmin.put(`/settings/${key}`, { value: 'x'.repeat(501) });
      expect(refused.statusCode).toBe(400);
    }
  });
  it('answers 400 for an unknown key, a missing value or a wrong value', async () => {
    const { company, asAdmin } = await tenant();
    const count = () => new TenantDb(t.database.db, company.id).count(settings);
    const before = await count();
    for (const [url, body] of [
      ['/settings/doesNotExist', { value: 'enabled' }],
      ['/settings/__proto__', { value: 'enabled' }],
      ['/settings/userRating', {}],
      ['/settings/userRating', { value: ['enabled'] }],
      ['/settings/userRating', { value: 'x'.repeat(501) }],
    ] as const) {
      const response = await asAdmin.put(url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().error).toBe('ERR_VALIDATION');
    }
    expect(await count()).toBe(before);
  });

  it('keeps asaas and userCreation for the super user: 403 to admins', async () => {
    const { company, asAdmin } = await tenant();
    for (const [key, value] of [
      ['asaas', 'admin-key'],
      ['userCreation', 'disabled'],
    ]) {
      const response = await asAdmin.put(`/settings/${key}`, { value });
      expect(response.statusCode, key).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await stored(company.id, 'asaas')).toBeUndefined();
    expect(await stored(company.id, 'userCreation')).toBe('enabled');
    const { rows } = await t.database.db.execute(
      sql`select 1 from settings where value = 'admin-key'`,
    );
    expect(rows).toHaveLength(0);
  });

  it('stores the payment key for the super user sealed, answering and listing a masked hint only', async () => {
    const secret = 'aact_SECRET_payment_key_123';
    const response = await t.as(superToken).put('/settings/asaas', { value: secret });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ key: 'asaas', value: '********_123' });
    expect(response.body).not.toContain(secret);
    const sealed = await stored(platform.company.id, 'asaas');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret);
    expect(openSecretSetting(TEST_SECRETS_KEY, sealed)).toBe(secret);
    const listed = (await t.as(superToken).get('/settings')).json() as Setting[];
    expect(listed.find((setting) => setting.key === 'asaas')?.value).toBe('********_123');
    expect(JSON.stringify(t.emitted)).not.toContain(secret);
    expect(
      t.emitted.some(
        (e) =>
          e.event === `company-${platform.company.id}-settings` &&
          JSON.stringify(e.payload).includes('asaas'),
      ),
    ).toBe(false);
  });

  it('keeps the stored payment key when its masked hint is sent back, and clears it on an empty value', async () => {
    const secret = 'aact_kept_payment_key_9876';
    await t.as(superToken).put('/settings/asaas', { value: secret });
    const sealed = await stored(platform.company.id, 'asaas');
    const resent = await t.as(superToken).put('/settings/asaas', { value: '********9876' });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ key: 'asaas', value: '********9876' });
    expect(await stored(platform.company.id, 'asaas')).toBe(sealed);
    expect(openSecretSetting(TEST_SECRETS_KEY, sealed)).toBe(secret);

    const cleared = await t.as(superToken).put('/settings/asaas', { value: '' });
    expect(cleared.json()).toEqual({ key: 'asaas', value: '' });
    expect(await stored(platform.company.id, 'asaas')).toBe('');
    const listed = (await t.as(superToken).get('/settings')).json() as Setting[];
    expect(listed.find((setting) => setting.key === 'asaas')?.value).toBe('');
  });

  it('lets the super user switch userCreation, with its values checked', async () => {
    const bad = await t.as(superToken).put('/settings/userCreation', { value: 'off' });
    expect(bad.statusCode).toBe(400);
    const off = await t.as(superToken).put('/settings/userCreation', { value: 'disabled' });
    expect(off.statusCode).toBe(200);
    expect(await stored(platform.company.id, 'userCreation')).toBe('disabled');
    const on = await t.as(superToken).put('/settings/userCreation', { value: 'enabled' });
    expect(on.json()).toEqual({ key: 'userCreation', value: 'enabled' });
  });
});
