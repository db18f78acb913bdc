import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeWhatsAppWeb } from '../../../test/fakes/whatsapp-web';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connectionAuthKeys, connections } from '../../db/schema';

/**
 * POST /whatsappsession/:id retries from the stored login; PUT asks for a new QR: the owner
 * stops the session, the stored login is forgotten, and the session starts again unpaired.
 */

const fake = new FakeWhatsAppWeb();
let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer({}, undefined, {
    channels: {
      baileys: {
        createSocket: fake.createSocket,
        retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40 },
      },
    },
  });
  const plan = await t.make.plan({ connections: 10 });
  const { admin } = await t.make.company({ planId: plan.id });
  token = (await t.login(admin.email)).token;
});
afterAll(async () => {
  await t?.stop();
  await fake.close();
});

const row = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;
const keysOf = async (id: number) =>
  t.database.db
    .select({ key: connectionAuthKeys.key, value: connectionAuthKeys.value })
    .from(connectionAuthKeys)
    .where(eq(connectionAuthKeys.connectionId, id))
    .orderBy(asc(connectionAuthKeys.key));
const credsOf = async (id: number) =>
  (
    await t.database.db
      .select({ value: connectionAuthKeys.value })
      .from(connectionAuthKeys)
      .where(
        and(eq(connectionAuthKeys.connectionId, id), eq(connectionAuthKeys.key, 'baileys:creds')),
      )
  )[0]?.value as { me?: { id: string }; noiseKey?: unknown } | undefined;

async function created(provider: string, name: string) {
  const answer = await t.as(token).post('/whatsapp', { name, provider });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().id as number;
}

describe('/whatsappsession/:id', () => {
  it('PUT shows a new QR for a paired WhatsApp Web connection, its stored keys wiped; POST logs in from them', async () => {
    const id = await created('beta', 'WhatsApp Web');
    await t.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    fake.scan(id, '5511933330001');
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    const paired = await credsOf(id);
    expect(paired?.me?.id).toMatch(/^5511933330001/);
    expect((await keysOf(id)).length).toBeGreaterThan(2);

    // POST: a retry, from the stored login (no QR).
    const sockets = fake.sockets(id).length;
    expect((await t.as(token).post(`/whatsappsession/${id}`)).statusCode).toBe(200);
    await expect.poll(() => fake.sockets(id).length).toBe(sockets + 1);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    expect(fake.socket(id).qrCount).toBe(0);
    expect((await credsOf(id))?.me?.id).toBe(paired!.me!.id);

    // PUT: a new login; the keys of the old one are gone, a new QR shows.
    const answer = await t.as(token).put(`/whatsappsession/${id}`);
    expect(answer.statusCode).toBe(200);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    expect(fake.socket(id).qrCount).toBeGreaterThan(0);
    expect((await row(id)).qrcode).toMatch(/^2@/);
    const fresh = await credsOf(id);
    expect(fresh?.me).toBeUndefined();
    expect(JSON.stringify(fresh?.noiseKey)).not.toBe(JSON.stringify(paired?.noiseKey));
    expect((await keysOf(id)).map((key) => key.key)).not.toContain('baileys:pre-key:1');

    // Scanning the new QR pairs the connection again (another phone, even).
    fake.scan(id, '5511933330002');
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    expect((await row(id)).number).toBe('5511933330002');
  });

  it('PUT unpairs a simulator connection for a new QR; POST reconnects it', async () => {
    const id = await created('simulator', 'Simulador');
    await t.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    const scan = async () =>
      t.as(token).post(`/simulator/connections/${id}/scan`, { qrcode: (await row(id)).qrcode });
    expect((await scan()).statusCode).toBe(204);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');

    await t.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    expect((await row(id)).qrcode).toBe('');

    await t.as(token).put(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    expect((await row(id)).qrcode).toMatch(/^SIMULATOR:/);
    expect((await scan()).statusCode).toBe(204);
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
  });

  it('PUT on a connection no instance runs starts it with a new login', async () => {
    const id = await created('beta', 'WhatsApp Web 2');
    await t.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    fake.scan(id, '5511933330003');
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    // Stopped here without a logout (as when its instance went away): the keys stay.
    await t.app.channelManager.command({ connectionId: id, action: 'stop' });
    expect(t.app.channels.isRunningHere(id)).toBe(false);
    expect((await credsOf(id))?.me).toBeDefined();

    await t.as(token).put(`/whatsappsession/${id}`);
    await expect.poll(async () => (await row(id)).status).toBe('qrcode');
    expect((await credsOf(id))?.me).toBeUndefined();
  });
});
