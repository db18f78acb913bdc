import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connections } from '../../db/schema';

let t: TestServer;
let companyId: number;
let adminToken: string;
let userToken: string;
let otherToken: string;

beforeAll(async () => {
  t = await startTestServer();
  const { company, admin } = await t.make.company();
  companyId = company.id;
  adminToken = (await t.login(admin.email)).token;
  const agent = await t.make.user(company.id);
  userToken = (await t.login(agent.email)).token;
  otherToken = (await t.login((await t.make.company()).admin.email)).token;
});
afterAll(() => t.stop());

const create = (body: Record<string, unknown>, token = adminToken) =>
  t.as(token).post('/whatsapp', body);
const row = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0];

describe('POST /whatsapp', () => {
  it('answers 401 without a token and 403 to a user', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/whatsapp', payload: { name: 'X' } })).statusCode,
    ).toBe(401);
    const denied = await create({ name: 'Vendas' }, userToken);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('validates the name (2-50) and the greeting needed by more than one queue', async () => {
    const short = await create({ name: 'A' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields[0]).toMatchObject({ path: 'body.name', message: 'Too Short!' });
    expect((await create({ name: 'x'.repeat(51) })).json().fields[0].message).toBe('Too Long!');
    const q1 = await t.make.queue(companyId);
    const q2 = await t.make.queue(companyId);
    const noGreeting = await create({ name: 'Duas filas', queueIds: [q1.id, q2.id] });
    expect(noGreeting.statusCode).toBe(400);
    expect(noGreeting.json()).toEqual({ error: 'ERR_WAPP_GREETING_REQUIRED' });
    const foreignQueue = await t.make.queue((await t.make.company()).company.id);
    expect((await create({ name: 'Fila alheia', queueIds: [foreignQueue.id] })).statusCode).toBe(
      400,
    );
  });

  it('makes the first connection the default and a new default replaces the old one', async () => {
    const first = await create({ name: 'Primeira', provider: 'simulator' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      isDefault: true,
      status: 'DISCONNECTED',
      provider: 'simulator',
    });
    const second = await create({ name: 'Segunda', provider: 'simulator', isDefault: true });
    expect(second.json().isDefault).toBe(true);
    expect((await row(first.json().id))!.isDefault).toBe(false);
    const duplicate = await create({ name: 'Segunda', provider: 'simulator' });
    expect(duplicate.statusCode).toBe(409);
  });

  it('answers the external-API token to admins only and never emits it', async () => {
    const created = await create({ name: 'Com token', provider: 'simulator' });
    const { id, token } = created.json();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect((await t.as(userToken).get(`/whatsapp/${id}`)).json().token).toBeUndefined();
    const list = await t.as(userToken).get('/whatsapp');
    expect(JSON.stringify(list.json())).not.toContain(token);
    expect(JSON.stringify(t.emitted)).not.toContain(token);
  });
});

describe('PUT /whatsapp/:id', () => {
  it('refuses to unset the only default (ERR_NO_OTHER_WHATSAPP)', async () => {
    const list = (await t.as(adminToken).get('/whatsapp')).json() as {
      id: number;
      isDefault: boolean;
    }[];
    const current = list.find((c) => c.isDefault)!;
    const answer = await t.as(adminToken).put(`/whatsapp/${current.id}`, { isDefault: false });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'ERR_NO_OTHER_WHATSAPP' });
  });

  it('updates fields and queues, and another company gets 404 with nothing changed', async () => {
    const created = (await create({ name: 'Editável', provider: 'simulator' })).json();
    const queue = await t.make.queue(companyId);
    const updated = await t.as(adminToken).put(`/whatsapp/${created.id}`, {
      name: 'Editada',
      greetingMessage: 'Olá!',
      queueIds: [queue.id],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Editada',
      greetingMessage: 'Olá!',
      queues: [{ id: queue.id }],
    });
    const foreign = await t.as(otherToken).put(`/whatsapp/${created.id}`, { name: 'Roubada' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await row(created.id))!.name).toBe('Editada');
    expect((await t.as(otherToken).get(`/whatsapp/${created.id}`)).statusCode).toBe(404);
    expect((await t.as(otherToken).post(`/whatsappsession/${created.id}`)).statusCode).toBe(404);
    expect((await t.as(userToken).put(`/whatsapp/${created.id}`, { name: 'x y' })).statusCode).toBe(
      403,
    );
  });
});

describe('DELETE /whatsapp/:id', () => {
  it('hands the default to another connection and is refused to users and other companies', async () => {
    const list = (await t.as(adminToken).get('/whatsapp')).json() as {
      id: number;
      isDefault: boolean;
    }[];
    const current = list.find((c) => c.isDefault)!;
    expect((await t.as(userToken).delete(`/whatsapp/${current.id}`)).statusCode).toBe(403);
    expect((await t.as(otherToken).delete(`/whatsapp/${current.id}`)).statusCode).toBe(404);
    expect(await row(current.id)).toBeDefined();
    expect((await t.as(adminToken).delete(`/whatsapp/${current.id}`)).statusCode).toBe(204);
    const left = (await t.as(adminToken).get('/whatsapp')).json() as { isDefault: boolean }[];
    expect(left.filter((c) => c.isDefault)).toHaveLength(1);
    expect(t.emitted).toContainEqual({
      event: `company-${companyId}-whatsapp`,
      payload: { action: 'delete', whatsappId: current.id },
    });
  });
});

describe('/whatsappsession/:id', () => {
  it('lets users start a session, only admins disconnect it', async () => {
    const created = (await create({ name: 'Sessão', provider: 'simulator' })).json();
    const started = await t.as(userToken).post(`/whatsappsession/${created.id}`);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ id: created.id });
    expect(started.json().token).toBeUndefined();
    await expect.poll(async () => (await row(created.id))!.status).toBe('qrcode');
    expect((await t.as(userToken).delete(`/whatsappsession/${created.id}`)).statusCode).toBe(403);
    const stopped = await t.as(adminToken).delete(`/whatsappsession/${created.id}`);
    expect(stopped.json()).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
  });
});
