import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startFakeSmtp } from '../../../test/fakes/smtp';
import { startTestServer, type TestServer } from '../../../test/harness';

let t: TestServer;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await startTestServer(smtp.env);
});
afterAll(async () => {
  await t.stop();
  await smtp.close();
});

let address = 0;
/** Each call from its own address unless told, so the per-address limits stay out of the way. */
const post = (url: string, payload?: object, remoteAddress?: string) => {
  address += 1;
  return t.app.inject({
    method: 'POST',
    url,
    ...(payload ? { payload } : {}),
    remoteAddress: remoteAddress ?? `10.30.${Math.floor(address / 250)}.${address % 250}`,
  });
};

const NEW_PASSWORD = 'NovaSenha1';

/** A user of a company who asked for a code by mail: the code it got. */
async function userWithCode() {
  const { company } = await t.make.company();
  const user = await t.make.user(company.id);
  const response = await post('/forgetpassword', { email: user.email });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ message: 'Email enviado com sucesso!' });
  const code = codeOf(await smtp.lastTo(user.email));
  expect(code).toMatch(/^\d{6}$/);
  return { user, code: code! };
}

async function storedCode(userId: number) {
  const { rows } = await t.database.db.execute<{ code_hash: string; attempts: number }>(
    sql`select code_hash, attempts from password_reset_codes where user_id = ${userId}`,
  );
  return rows[0];
}

describe('POST /forgetpassword', () => {
  it('mails a six-digit code through SMTP and keeps only its hash', async () => {
    const { user, code } = await userWithCode();
    const mail = await smtp.lastTo(user.email);
    expect(mail.from).toBe('no-reply@atendi.test');
    const stored = (await storedCode(user.id))!;
    expect(stored.code_hash).not.toContain(code);
    expect(stored.code_hash).toMatch(/^[\w-]{43}$/);
  });

  it("keeps the spec's path: POST /forgetpassword/{email}", async () => {
    const { company } = await t.make.company();
    const user = await t.make.user(company.id);
    const response = await post(`/forgetpassword/${encodeURIComponent(user.email)}`);
    expect(response.statusCode).toBe(200);
    expect(codeOf(await smtp.lastTo(user.email))).toMatch(/^\d{6}$/);
  });

  it("answers 404 'Email não encontrado' (ERR_EMAIL_NOT_FOUND) for an unknown address and mails nothing", async () => {
    const before = smtp.received.length;
    const response = await post('/forgetpassword/nobody-here@example.com');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'ERR_EMAIL_NOT_FOUND' });
    expect(smtp.received.length).toBe(before);
  });

  it('refuses a malformed e-mail with 400', async () => {
    const response = await post('/forgetpassword', { email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
  });

  it('takes three requests per e-mail in 15 minutes, then 429 with Retry-After', async () => {
    const { company } = await t.make.company();
    const user = await t.make.user(company.id);
    for (let i = 0; i < 3; i += 1) {
      expect((await post('/forgetpassword', { email: user.email })).statusCode).toBe(200);
    }
    const refused = await post('/forgetpassword', { email: user.email });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('takes ten requests per address in an hour, known e-mails or not', async () => {
    const from = '10.99.0.1';
    for (let i = 0; i < 10; i += 1) {
      const response = await post('/forgetpassword', { email: `probe${i}@example.com` }, from);
      expect(response.statusCode).toBe(404);
    }
    const refused = await post('/forgetpassword', { email: 'probe10@example.com' }, from);
    expect(refused.statusCode).toBe(429);
  });
});

describe('POST /resetpasswords', () => {
  it('sets the new password with the right code, ends every session and spends the code', async () => {
    const { user, code } = await userWithCode();
    const session = await t.login(user.email);
    expect((await t.as(session.token).get('/auth/me')).statusCode).toBe(200);

    const response = await post('/resetpasswords', {
      email: user.email,
      token: code,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Senha redefinida com sucesso.' });
    expect((await t.as(session.token).get('/auth/me')).statusCode).toBe(401);
    await expect(t.login(user.email)).rejects.toThrow(/401/);
    expect((await t.login(user.email, NEW_PASSWORD)).token).toBeTruthy();

    const again = await post('/resetpasswords', {
      email: user.email,
      token: code,
      newPassword: 'OutraSenha2',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    expect((await t.login(user.email, NEW_PASSWORD)).token).toBeTruthy();
  });

  it("keeps the spec's path: POST /resetpasswords/{email}/{token}/{newPassword}", async () => {
    const { user, code } = await userWithCode();
    const response = await post(
      `/resetpasswords/${encodeURIComponent(user.email)}/${code}/${NEW_PASSWORD}`,
    );
    expect(response.statusCode).toBe(200);
    expect((await t.login(user.email, NEW_PASSWORD)).token).toBeTruthy();
  });

  it('refuses a password without upper, lower and digit or under 8 characters, with the spec message', async () => {
    const { user, code } = await userWithCode();
    for (const weak of ['curta1A', 'semnumeroAA', 'SEMMINUSCULA1', 'semmaiuscula1']) {
      const response = await post('/resetpasswords', {
        email: user.email,
        token: code,
        newPassword: weak,
      });
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain(
        'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
      );
    }
    // the weak tries were refused before the code was tried: it still works
    expect(
      (await post('/resetpasswords', { email: user.email, token: code, newPassword: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('spends the code after five wrong tries: the right one is refused after', async () => {
    const { user, code } = await userWithCode();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const response = await post('/resetpasswords', {
        email: user.email,
        token: wrong,
        newPassword: NEW_PASSWORD,
      });
      expect(response.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    }
    const right = await post('/resetpasswords', {
      email: user.email,
      token: code,
      newPassword: NEW_PASSWORD,
    });
    expect(right.statusCode).toBe(400);
    await expect(t.login(user.email, NEW_PASSWORD)).rejects.toThrow(/401/);
  });

  it('refuses an expired code', async () => {
    const { user, code } = await userWithCode();
    await t.database.db.execute(
      sql`update password_reset_codes set expires_at = now() - interval '1 second' where user_id = ${user.id}`,
    );
    const response = await post('/resetpasswords', {
      email: user.email,
      token: code,
      newPassword: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
  });

  it('answers an unknown e-mail as a wrong code, and a new request replaces the old code', async () => {
    const unknown = await post('/resetpasswords', {
      email: 'nobody@example.com',
      token: '123456',
      newPassword: NEW_PASSWORD,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });

    const { user, code: first } = await userWithCode();
    await post('/forgetpassword', { email: user.email });
    const mails = smtp.received.filter((mail) => mail.to.includes(user.email));
    expect(mails).toHaveLength(2);
    const second = codeOf(mails[1]!)!;
    if (first !== second) {
      const old = await post('/resetpasswords', {
        email: user.email,
        token: first,
        newPassword: NEW_PASSWORD,
      });
      expect(old.statusCode).toBe(400);
    }
    const fresh = await post('/resetpasswords', {
      email: user.email,
      token: second,
      newPassword: NEW_PASSWORD,
    });
    expect(fresh.statusCode).toBe(200);
  });
});
