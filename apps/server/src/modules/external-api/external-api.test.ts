import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  closeSockets,
  emittedOf,
  PNG,
  pairedSimulator,
  phoneInbox,
  postForm,
} from '../../../test/inbox';
import { contacts, messages, tickets } from '../../db/schema';

let t: TestServer;
const RATE_LIMIT = 12;

/** A company whose plan has the external API, with a paired simulator and its token. */
async function apiCompany(useExternalApi = true) {
  const plan = await t.make.plan({ useExternalApi });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const connectionId = await pairedSimulator(t, adminToken, `Api ${useExternalApi}`);
  const apiToken = (await t.as(adminToken).get(`/whatsapp/${connectionId}`)).json().token as string;
  return { companyId: company.id, adminToken, connectionId, apiToken };
}

let home: Awaited<ReturnType<typeof apiCompany>>;
let noPlan: Awaited<ReturnType<typeof apiCompany>>;

beforeAll(async () => {
  t = await startTestServer({ EXTERNAL_API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  home = await apiCompany();
  noPlan = await apiCompany(false);
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const send = (token: string | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    payload: payload as object,
  });

describe('POST /api/messages/send', () => {
  it('refuses a missing, empty, malformed, unknown or revoked token with one 401 that speaks of no session', async () => {
    const body = { number: '5511987650001', body: 'Olá' };
    // Revoked twice over: a connection whose token was replaced, and one that was deleted.
    const replaced = await apiCompany();
    const revoked = (
      await t.as(replaced.adminToken).post(`/whatsapp/${replaced.connectionId}/token`)
    ).json().token as string;
    expect(revoked).not.toBe(replaced.apiToken);
    const deleted = await apiCompany();
    const removal = await t.as(deleted.adminToken).delete(`/whatsapp/${deleted.connectionId}`);
    expect(removal.statusCode).toBeLessThan(300);
    const cases: [string, Promise<Awaited<ReturnType<typeof send>>>][] = [
      ['missing', send(undefined, body)],
      [
        'empty',
        t.app.inject({
          method: 'POST',
          url: '/api/messages/send',
          headers: { authorization: 'Bearer ' },
          payload: body,
        }),
      ],
      ['malformed', send('short', body)],
      ['never existed', send('x'.repeat(43), body)],
      ['one character off', send(`${home.apiToken.slice(0, -1)}A`, body)],
      ['replaced by a new one', send(replaced.apiToken, body)],
      ['of a deleted connection', send(deleted.apiToken, body)],
    ];
    for (const [label, pending] of cases) {
      const answer = await pending;
      expect(answer.statusCode, label).toBe(401);
      expect(answer.json(), label).toEqual({ error: 'ERR_INVALID_API_TOKEN' });
    }
    // The new token works.
    const sent = await send(revoked, body);
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it("refuses a user's session token: only a connection's token opens the API", async () => {
    const answer = await send(home.adminToken, { number: '5511987650001', body: 'Olá' });
    expect(answer.statusCode).toBe(401);
  });

  it("is refused when the company's plan lacks useExternalApi", async () => {
    const answer = await send(noPlan.apiToken, { number: '5511987650002', body: 'Olá' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('refuses a missing number or an empty text', async () => {
    const noNumber = await send(home.apiToken, { body: 'Olá' });
    expect(noNumber.statusCode).toBe(400);
    const empty = await send(home.apiToken, { number: '5511987650003', body: '  ' });
    expect(empty.statusCode).toBe(400);
    const letters = await send(home.apiToken, { number: 'abc', body: 'Olá' });
    expect(letters.statusCode).toBe(400);
  });

  it("sends a text to a normalised number, in the contact's ticket like an agent's", async () => {
    const answer = await send(home.apiToken, { number: '(11) 8765-0004', body: 'Seu pedido saiu' });
    expect(answer.statusCode, answer.body).toBe(200);
    const result = answer.json();
    expect(result).toMatchObject({ mensagem: 'Mensagem enviada', ids: [result.id] });

    const [stored] = await t.database.db.select().from(messages).where(eq(messages.id, result.id));
    expect(stored).toMatchObject({
      body: 'Seu pedido saiu',
      fromMe: true,
      ticketId: result.ticketId,
    });
    const [ticket] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, result.ticketId));
    expect(ticket).toMatchObject({ companyId: home.companyId, whatsappId: home.connectionId });
    const [contact] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, ticket!.contactId));
    expect(contact!.number).toBe('5511987650004');

    await expect
      .poll(async () =>
        (await phoneInbox(t, home.adminToken, home.connectionId, '5511987650004')).map(
          (m) => m.body,
        ),
      )
      .toEqual(['Seu pedido saiu']);
    expect(
      emittedOf(t, `company-${home.companyId}-appMessage`).some(
        (p) => (p.message as { id: number } | undefined)?.id === result.id,
      ),
    ).toBe(true);

    // A second send reaches the same live ticket.
    const again = await send(home.apiToken, { number: '5511987650004', body: 'Chegou?' });
    expect(again.json().ticketId).toBe(result.ticketId);
  });

  it('reads a number as the contact lists do: the long-distance zero, no number refused', async () => {
    const dialled = await send(home.apiToken, { number: '011 98765-0021', body: 'Oi' });
    expect(dialled.statusCode, dialled.body).toBe(200);
    const written = await send(home.apiToken, { number: '+55 11 98765-0021', body: 'De novo' });
    expect(written.json().ticketId).toBe(dialled.json().ticketId);
    const [ticket] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, dialled.json().ticketId));
    const [contact] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, ticket!.contactId));
    expect(contact!.number).toBe('5511987650021');

    const badArea = await send(home.apiToken, { number: '+55 01 98765-0021', body: 'Oi' });
    expect(badArea.statusCode).toBe(400);
    expect(badArea.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('sends files from a multipart form, the text as the first caption', async () => {
    const answer = await postForm(
      t,
      home.apiToken,
      '/api/messages/send',
      { number: '5511987650005', body: 'Sua nota' },
      [
        { field: 'medias', name: 'nota.png', type: 'image/png', content: PNG },
        { field: 'medias', name: 'copia.png', type: 'image/png', content: PNG },
      ],
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().ids).toHaveLength(2);
    await expect
      .poll(async () =>
        (await phoneInbox(t, home.adminToken, home.connectionId, '5511987650005')).map((m) => [
          m.kind,
          m.body,
        ]),
      )
      .toEqual([
        ['image', 'Sua nota'],
        ['image', ''],
      ]);
  });

  it('refuses a form with a wrong token before reading its files', async () => {
    const answer = await postForm(
      t,
      'x'.repeat(43),
      '/api/messages/send',
      { number: '5511987650006' },
      [{ field: 'medias', name: 'a.png', type: 'image/png', content: PNG }],
    );
    expect(answer.statusCode).toBe(401);
  });

  it('stops working for the old token once an admin regenerates it', async () => {
    const company = await apiCompany();
    const renewed = await t.as(company.adminToken).post(`/whatsapp/${company.connectionId}/token`);
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().token as string;
    expect(fresh).toMatch(/^[\w-]{43}$/);
    expect(fresh).not.toBe(company.apiToken);
    const old = await send(company.apiToken, { number: '5511987650007', body: 'Oi' });
    expect(old.statusCode).toBe(401);
    const ok = await send(fresh, { number: '5511987650007', body: 'Oi' });
    expect(ok.statusCode).toBe(200);
  });

  it('limits the sends of one token a minute, with Retry-After', async () => {
    const company = await apiCompany();
    const answers = [];
    for (let i = 0; i <= RATE_LIMIT; i++) {
      answers.push(await send(company.apiToken, { number: '5511987650008', body: `Oi ${i}` }));
    }
    expect(answers.slice(0, RATE_LIMIT).every((a) => a.statusCode === 200)).toBe(true);
    const last = answers.at(-1)!;
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Another token counts on its own.
    expect((await send(home.apiToken, { number: '5511987650009', body: 'Oi' })).statusCode).toBe(
      200,
    );
  });
});

describe('POST /whatsapp/:id/token', () => {
  it('is for admins of the company only', async () => {
    const other = await apiCompany();
    expect(
      (await t.as(other.adminToken).post(`/whatsapp/${home.connectionId}/token`)).statusCode,
    ).toBe(404);
    const unauthenticated = await t.app.inject({
      method: 'POST',
      url: `/whatsapp/${home.connectionId}/token`,
    });
    expect(unauthenticated.statusCode).toBe(401);
  });
});
