import { hash } from '@node-rs/bcrypt';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startTestServer, TEST_JWT_SECRET, type TestServer } from '../../../test/harness';
import { verifyPassword } from '../../platform/auth/passwords';
import { TokenService } from '../../platform/auth/tokens';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

const login = (payload: unknown, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: payload as object, remoteAddress });

describe('POST /auth/login', () => {
  it('answers a token and the user with company, due date, plan and settings', async () => {
    const { company, admin } = await t.make.company({ dueDate: '2099-01-01' });
    const response = await login({ email: admin.email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^ey/);
    expect(body.user).toMatchObject({
      id: admin.id,
      email: admin.email,
      profile: 'admin',
      companyId: company.id,
      company: { id: company.id, dueDate: '2099-01-01', plan: { id: company.planId } },
    });
    expect(body.user.company.settings).toEqual(
      expect.arrayContaining([{ key: 'sendGreetingAccepted', value: 'disabled' }]),
    );
    expect(body.dueDateWarning).toBe(false);
    expect(response.body).not.toMatch(/password/i);
    const cookie = response.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/auth', sameSite: 'Lax' });
  });

  it('stores argon2id hashes', async () => {
    const { admin } = await t.make.company();
    const { rows } = await t.database.db.execute<{ password_hash: string }>(
      sql`select password_hash from users where id = ${admin.id}`,
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('signs in a bcrypt hash moved from Whaticket and replaces it by argon2id on that sign-in', async () => {
    const { admin } = await t.make.company();
    // bcryptjs' form, as the original's User model writes it (cost 8).
    const bcrypt = (await hash('senha-do-whaticket', 8)).replace(/^\$2b\$/, '$2a$');
    await t.database.db.execute(
      sql`update users set password_hash = ${bcrypt} where id = ${admin.id}`,
    );
    const storedHash = async () =>
      (
        await t.database.db.execute<{ password_hash: string }>(
          sql`select password_hash from users where id = ${admin.id}`,
        )
      ).rows[0]!.password_hash;

    expect((await login({ email: admin.email, password: 'wrong-password' })).statusCode).toBe(401);
    expect(await storedHash()).toBe(bcrypt);
    expect((await login({ email: admin.email, password: 'senha-do-whaticket' })).statusCode).toBe(
      200,
    );
    expect(await storedHash()).toMatch(/^\$argon2id\$/);
    // The same password goes on working against the new hash; the old one is gone.
    expect((await login({ email: admin.email, password: 'senha-do-whaticket' })).statusCode).toBe(
      200,
    );
    expect(await verifyPassword(await storedHash(), 'senha-do-whaticket')).toBe(true);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const { admin } = await t.make.company();
    for (const payload of [
      { email: admin.email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: PASSWORD },
    ]) {
      const response = await login(payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    }
  });

  it('validates the body', async () => {
    const missing = await login({ password: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('ERR_VALIDATION');
    expect(missing.json().fields[0].path).toBe('body.email');
    const wrongType = await login({ email: 'a@b.co', password: 123456 });
    expect(wrongType.statusCode).toBe(400);
    // A field the form does not have is ignored: these credentials are just wrong.
    const extra = await login({ email: 'a@b.co', password: 'x', admin: true });
    expect(extra.statusCode).toBe(401);
    expect(extra.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'ERR_INVALID_JSON' });
  });

  it('refuses a company past its due date with the spec message', async () => {
    const { admin } = await t.make.company({ dueDate: '2020-03-05' });
    const response = await login({ email: admin.email, password: PASSWORD });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error: 'ERR_SUBSCRIPTION_EXPIRED',
      dueDate: '2020-03-05',
      message:
        'Opss! Sua assinatura venceu 05/03/2020. Entre em contato com o Suporte para mais informações!',
    });
  });

  it('refuses a company the super user deactivated', async () => {
    const { admin, company } = await t.make.company();
    await t.database.db.execute(sql`update companies set status = false where id = ${company.id}`);
    const response = await login({ email: admin.email, password: PASSWORD });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'ERR_COMPANY_INACTIVE' });
  });

  it('warns when fewer than 5 days remain', async () => {
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const { admin } = await t.make.company({ dueDate: inThreeDays });
    const response = await login({ email: admin.email, password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ dueDateWarning: true, daysToDueDate: 3 });
  });

  it('limits attempts per address and failures per email', async () => {
    const limited = await startTestServer({ LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const attempt = (email: string, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email, password: 'wrong' },
          remoteAddress,
        });
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await attempt(`a${i}@x.com`, '10.1.1.1')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const perAddress = await attempt('a9@x.com', '10.1.1.1');
      expect(perAddress.json()).toEqual({ error: 'ERR_TOO_MANY_REQUESTS' });
      // Retry-After says the wait in whole seconds: what is left of the address's minute.
      const addressWait = Number(perAddress.headers['retry-after']);
      expect(addressWait).toBeGreaterThanOrEqual(1);
      expect(addressWait).toBeLessThanOrEqual(60);

      // Ten failures for one email from ten addresses lock that email, not the others.
      const email = 'victim@example.com';
      for (let i = 0; i < 10; i++)
        expect((await attempt(email, `10.2.0.${i}`)).statusCode).toBe(401);
      const locked = await attempt(email, '10.3.0.1');
      expect(locked.statusCode).toBe(429);
      // the email's lock lasts the rest of its 15 minutes, not one minute
      const emailWait = Number(locked.headers['retry-after']);
      expect(emailWait).toBeGreaterThan(60);
      expect(emailWait).toBeLessThanOrEqual(15 * 60);
      expect((await attempt('other@example.com', '10.3.0.2')).statusCode).toBe(401);

      // A browser on the web app's origin may read it.
      const fromWeb = await limited.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { origin: 'http://localhost:3000' },
        payload: { email, password: 'wrong' },
        remoteAddress: '10.3.0.3',
      });
      expect(fromWeb.statusCode).toBe(429);
      expect(fromWeb.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(String(fromWeb.headers['access-control-expose-headers'])).toMatch(/retry-after/i);
    } finally {
      await limited.stop();
    }
  });

  it("ends the user's older sessions and announces it on company-{id}-auth", async () => {
    const { company, admin } = await t.make.company();
    const first = await t.login(admin.email);
    const second = await t.login(admin.email);
    expect((await t.as(first.token).get('/auth/me')).statusCode).toBe(401);
    expect((await t.as(second.token).get('/auth/me')).statusCode).toBe(200);
    const sid = JSON.parse(Buffer.from(second.token.split('.')[1]!, 'base64url').toString()).sid;
    expect(t.emitted).toContainEqual({
      event: `company-${company.id}-auth`,
      payload: { action: 'update', user: { id: admin.id }, sessionId: sid },
    });
  });
});

describe('POST /auth/refresh_token', () => {
  const refresh = (cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/refresh_token',
      ...(cookie ? { cookies: { jrt: cookie } } : {}),
    });

  it('rotates the refresh token and answers a new access token', async () => {
    const { admin } = await t.make.company();
    const session = await t.login(admin.email);
    const response = await refresh(session.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(admin.id);
    const next = response.cookies.find((c) => c.name === 'jrt')!.value;
    expect(next).not.toBe(session.cookie);
    expect((await t.as(response.json().token).get('/auth/me')).statusCode).toBe(200);
  });

  it('revokes the whole session when an old refresh token comes back', async () => {
    const { admin } = await t.make.company();
    const session = await t.login(admin.email);
    const rotated = (await refresh(session.cookie)).cookies.find((c) => c.name === 'jrt')!.value;
    // Past the grace window that covers two tabs refreshing at once.
    await t.database.db.execute(
      sql`update auth_refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`,
    );
    const replay = await refresh(session.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    expect((await refresh(rotated)).statusCode).toBe(401);
    expect((await t.as(session.token).get('/auth/me')).statusCode).toBe(401);
  });

  it('tolerates two refreshes with the same token at once', async () => {
    const { admin } = await t.make.company();
    const session = await t.login(admin.email);
    const [a, b] = await Promise.all([refresh(session.cookie), refresh(session.cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  });

  it('stops refreshing once the company is past its due date, and ends the session', async () => {
    const { admin, company } = await t.make.company();
    const session = await t.login(admin.email);
    await t.database.db.execute(
      sql`update companies set due_date = '2020-01-01' where id = ${company.id}`,
    );
    const response = await refresh(session.cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect((await t.as(session.token).get('/auth/me')).statusCode).toBe(401);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    expect((await refresh()).statusCode).toBe(401);
    expect((await refresh('made-up')).statusCode).toBe(401);
  });
});

describe('DELETE /auth/logout', () => {
  it('ends the session: the access token and the refresh cookie stop working', async () => {
    const { admin } = await t.make.company();
    const session = await t.login(admin.email);
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${session.token}` },
      cookies: { jrt: session.cookie },
    });
    expect(response.statusCode).toBe(204);
    expect((await t.as(session.token).get('/auth/me')).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh_token',
      cookies: { jrt: session.cookie },
    });
    expect(again.statusCode).toBe(401);
  });
});

describe('GET /auth/me', () => {
  it('answers the signed-in user', async () => {
    const { admin } = await t.make.company();
    const { token } = await t.login(admin.email);
    const response = await t.as(token).get('/auth/me');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: admin.id, email: admin.email });
  });

  it('answers 401 without a token, with a forged one, and 403 with an expired one', async () => {
    const { admin, company } = await t.make.company();
    const { token } = await t.login(admin.email);
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    const claims = { sub: String(admin.id), cid: company.id, sid };
    const forged = await new TokenService('another-secret-another-secret-another', 900).sign(
      claims,
    );
    const expired = await new TokenService(TEST_JWT_SECRET, -60).sign(claims);

    expect((await t.app.inject({ method: 'GET', url: '/auth/me' })).statusCode).toBe(401);
    expect((await t.as(forged).get('/auth/me')).statusCode).toBe(401);
    expect((await t.as('not-a-jwt').get('/auth/me')).statusCode).toBe(401);
    const late = await t.as(expired).get('/auth/me');
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });
});
