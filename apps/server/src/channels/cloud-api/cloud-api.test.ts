import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeGraphApi,
  messageWebhook,
  postWebhook,
  signatureOf,
  statusWebhook,
  wamid,
  webhookPayload,
} from '../../../test/fakes/graph-api';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connections, contacts, messages, tickets } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { GraphClient, GraphError } from './cloud-api.graph';
import { changeOf } from './cloud-api.normalise';
import { sameSecret, validSignature } from './cloud-api.provider';
import { loadCloudApiSettings } from './cloud-api.settings';

let t: TestServer;
let graph: FakeGraphApi;
let token: string;
let companyId: number;
let connectionId: number;

const PHONE_NUMBER_ID = '204060801001';
const settings = {
  phoneNumberId: PHONE_NUMBER_ID,
  accessToken: 'EAAGcloudapitesttoken0123456789',
  appSecret: 'cloud-app-secret-42',
  verifyToken: 'verify-me-please',
};

beforeAll(async () => {
  graph = await FakeGraphApi.start();
  graph.addNumber(PHONE_NUMBER_ID, settings.accessToken, '+55 11 3000-4000');
  t = await startTestServer(graph.env, undefined, {
    channels: {
      cloudApi: {
        healthCheckMs: 100,
        retry: { maxRetries: 30, baseDelayMs: 20, maxDelayMs: 100 },
      },
    },
  });
  const { company, admin } = await t.make.company();
  companyId = company.id;
  token = (await t.login(admin.email)).token;
});
afterAll(async () => {
  await t?.stop();
  await graph?.close();
});

const row = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;

const countMessages = async () =>
  (
    await t.database.db
      .select({ n: count() })
      .from(messages)
      .where(eq(messages.connectionId, connectionId))
  )[0]!.n;

const post = (
  payload: Parameters<typeof postWebhook>[3],
  options?: { signature?: string | null },
) => postWebhook(t.url, connectionId, settings.appSecret, payload, options);

describe('Cloud API connection settings', () => {
  it('are required for a cloud-api connection', async () => {
    const missing = await t.as(token).post('/whatsapp', { name: 'Oficial', provider: 'cloud-api' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('ERR_VALIDATION');
    const partial = await t.as(token).post('/whatsapp', {
      name: 'Oficial',
      provider: 'cloud-api',
      cloudApi: { phoneNumberId: PHONE_NUMBER_ID, accessToken: settings.accessToken },
    });
    expect(partial.statusCode).toBe(400);
    expect(await t.database.db.select().from(connections)).toEqual([]);
  });

  it('are stored write-only: never answered, never emitted', async () => {
    const created = await t.as(token).post('/whatsapp', {
      name: 'Oficial',
      provider: 'cloud-api',
      cloudApi: settings,
    });
    expect(created.statusCode, created.body).toBe(201);
    connectionId = created.json().id;
    const answers = [
      created.body,
      (await t.as(token).get(`/whatsapp/${connectionId}`)).body,
      (await t.as(token).get('/whatsapp')).body,
      JSON.stringify(t.emitted),
    ];
    for (const answer of answers) {
      for (const secret of [settings.accessToken, settings.appSecret, settings.verifyToken]) {
        expect(answer).not.toContain(secret);
      }
    }
    const stored = await loadCloudApiSettings(
      tenantDb(systemContext(t.app.platform.db, companyId)),
      connectionId,
    );
    expect(stored).toEqual(settings);
  });

  it('change only what is sent (a rotated token keeps the rest)', async () => {
    const rotated = `${settings.accessToken}-rotated`;
    const updated = await t
      .as(token)
      .put(`/whatsapp/${connectionId}`, { cloudApi: { accessToken: rotated } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.body).not.toContain(rotated);
    const db = tenantDb(systemContext(t.app.platform.db, companyId));
    expect(await loadCloudApiSettings(db, connectionId)).toMatchObject({
      accessToken: rotated,
      appSecret: settings.appSecret,
    });
    await t.as(token).put(`/whatsapp/${connectionId}`, {
      cloudApi: { accessToken: settings.accessToken },
    });
  });
});

describe('Cloud API webhooks', () => {
  it('answer 503 while the session is not started, so Meta tries again later', async () => {
    const { payload } = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511960000001' },
      {
        type: 'text',
        text: { body: 'cedo demais' },
      },
    );
    expect((await post(payload)).status).toBe(503);
    expect(await countMessages()).toBe(0);
  });

  it('connect when the Graph API accepts the token', async () => {
    expect((await t.as(token).post(`/whatsappsession/${connectionId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await row(connectionId)).status).toBe('CONNECTED');
    expect((await row(connectionId)).number).toBe('551130004000');
  });

  it('answer the subscription check only with the verify token', async () => {
    const verify = (query: string) => fetch(`${t.url}/webhooks/cloud-api/${connectionId}?${query}`);
    const ok = await verify(
      `hub.mode=subscribe&hub.verify_token=${settings.verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    expect((await verify('hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1')).status).toBe(
      403,
    );
    expect(
      (
        await verify(
          `hub.mode=unsubscribe&hub.verify_token=${settings.verifyToken}&hub.challenge=1`,
        )
      ).status,
    ).toBe(403);
    expect((await verify('hub.challenge=1')).status).toBe(403);
  });

  it('refuse a missing or wrong signature with 401 and store nothing', async () => {
    const { payload } = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511960000002' },
      {
        type: 'text',
        text: { body: 'forjado' },
      },
    );
    const body = JSON.stringify(payload);
    for (const signature of [
      null,
      'sha256=',
      'sha1=abc',
      signatureOf('another-secret', body),
      signatureOf(settings.appSecret, `${body} `),
      `${signatureOf(settings.appSecret, body).slice(0, -2)}zz`,
    ]) {
      const answer = await post(payload, { signature });
      expect(answer.status, String(signature)).toBe(401);
    }
    expect(await countMessages()).toBe(0);
  });

  it('answer 200 only once every message of the payload is committed', async () => {
    const payload = webhookPayload(PHONE_NUMBER_ID, {
      contacts: [{ wa_id: '5511960000003', profile: { name: 'Carla' } }],
      messages: ['um', 'dois', 'três'].map((body, i) => ({
        id: wamid(),
        from: '5511960000003',
        timestamp: String(Math.floor(Date.now() / 1000) + i),
        type: 'text',
        text: { body },
      })),
    });
    const answer = await post(payload);
    expect(answer.status).toBe(200);
    // No waiting: the answer came after the commit.
    const stored = await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.connectionId, connectionId))
      .orderBy(messages.id);
    expect(stored.map((m) => m.body)).toEqual(['um', 'dois', 'três']);
  });

  it("ignore another number's changes and refuse unreadable JSON", async () => {
    const before = await countMessages();
    const { payload } = messageWebhook(
      '999999999',
      { phone: '5511960000004' },
      {
        type: 'text',
        text: { body: 'outro número' },
      },
    );
    expect((await post(payload)).status).toBe(200);
    const broken = '{"entry": [';
    const answer = await fetch(`${t.url}/webhooks/cloud-api/${connectionId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signatureOf(settings.appSecret, broken),
      },
      body: broken,
    });
    expect(answer.status).toBe(400);
    expect(await countMessages()).toBe(before);
  });

  it('store a reaction pointing at its message', async () => {
    const { payload, id } = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511960000003' },
      {
        type: 'text',
        text: { body: 'gostou?' },
      },
    );
    await post(payload);
    const reaction = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511960000003' },
      {
        type: 'reaction',
        reaction: { message_id: id, emoji: '👍' },
      },
    );
    expect((await post(reaction.payload)).status).toBe(200);
    const [stored] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, reaction.id));
    const [target] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, id));
    expect(stored).toMatchObject({ body: '👍', mediaType: 'chat', quotedMsgId: target!.id });
  });

  it('answer 500 when a message cannot be stored, and store it once when Meta sends it again', async () => {
    const mediaId = graph.addMedia(PHONE_NUMBER_ID, Buffer.from('fake ogg'), 'audio/ogg');
    const { payload, id } = messageWebhook(
      PHONE_NUMBER_ID,
      { phone: '5511960000005' },
      {
        type: 'audio',
        audio: { id: mediaId, mime_type: 'audio/ogg; codecs=opus', voice: true },
      },
    );
    graph.setDown(true);
    expect((await post(payload)).status).toBe(500);
    graph.setDown(false);
    expect(
      await t.database.db.select().from(messages).where(eq(messages.providerMessageId, id)),
    ).toEqual([]);
    expect((await post(payload)).status).toBe(200);
    expect((await post(payload)).status).toBe(200);
    const stored = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ mediaType: 'audio', mediaMime: 'audio/ogg' });
    await expect.poll(async () => (await row(connectionId)).status).toBe('CONNECTED');
  });
});

describe('Cloud API outbound', () => {
  const ticketOf = async (phone: string) => {
    const [ticket] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, phone)));
    return ticket!.id;
  };

  it('uploads a document and sends it with its file name, under the wamid the API returned', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const ticketId = await ticketOf('5511960000003');
    const pdf = Buffer.from('%PDF-1.7 proposta');
    const stored = await t.app.platform.storage.save(
      companyId,
      'application/pdf',
      Readable.from(pdf),
    );
    const sent = await t.app.services.outbound.send(ctx, ticketId, {
      body: 'proposta.pdf',
      media: {
        key: stored.key,
        mimeType: 'application/pdf',
        fileName: 'proposta.pdf',
        kind: 'document',
      },
    });
    const [saved] = await t.database.db.select().from(messages).where(eq(messages.id, sent.id));
    const send = graph.sends.find((s) => s.id === saved!.providerMessageId)!;
    expect(saved!.providerMessageId).toMatch(/^wamid\./);
    expect(send.body).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'document',
      document: { filename: 'proposta.pdf' },
    });
    // The file name is not repeated as a caption.
    expect((send.body.document as { caption?: string }).caption).toBeUndefined();
    const upload = graph.uploads.get((send.body.document as { id: string }).id)!;
    expect(upload).toMatchObject({ mimeType: 'application/pdf', fileName: 'proposta.pdf' });
    expect(upload.bytes).toEqual(pdf);
  });

  it('sends an Ogg Opus audio as a voice note', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const ticketId = await ticketOf('5511960000003');
    const ogg = Buffer.from('OggS voice note');
    const stored = await t.app.platform.storage.save(companyId, 'audio/ogg', Readable.from(ogg));
    const sent = await t.app.services.outbound.send(ctx, ticketId, {
      body: '',
      media: { key: stored.key, mimeType: 'audio/ogg', fileName: 'audio.ogg', kind: 'audio' },
    });
    const [saved] = await t.database.db.select().from(messages).where(eq(messages.id, sent.id));
    const send = graph.sends.find((s) => s.id === saved!.providerMessageId)!;
    expect(send.body).toMatchObject({ type: 'audio', audio: { voice: true } });
    const upload = graph.uploads.get((send.body.audio as { id: string }).id)!;
    expect(upload).toMatchObject({ mimeType: 'audio/ogg', bytes: ogg });
  });

  it("keeps ticks where they are on a 'failed' status", async () => {
    const [sent] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.connectionId, connectionId), eq(messages.fromMe, true)));
    await post(
      statusWebhook(PHONE_NUMBER_ID, [{ id: sent!.providerMessageId!, status: 'delivered' }]),
    );
    await post(
      statusWebhook(PHONE_NUMBER_ID, [{ id: sent!.providerMessageId!, status: 'failed' }]),
    );
    const [after] = await t.database.db.select().from(messages).where(eq(messages.id, sent!.id));
    expect(after!.ack).toBe(3);
  });

  it('shows DISCONNECTED when a send finds the token revoked, the failure kept on the message', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const ticketId = await ticketOf('5511960000003');
    graph.revoke(settings.accessToken);
    await expect(
      t.app.services.outbound.send(ctx, ticketId, { body: 'sem token' }),
    ).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    await expect.poll(async () => (await row(connectionId)).status).toBe('DISCONNECTED');
    const [failed] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.body, 'sem token'));
    expect(failed!.ack).toBe(0);
  });
});

describe('webhook secrets', () => {
  it('never match when empty or missing', () => {
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret('anything', '')).toBe(false);
    expect(sameSecret('', 'verify-token')).toBe(false);
    expect(sameSecret('verify-tokeN', 'verify-token')).toBe(false);
    expect(sameSecret('verify-token', 'verify-token')).toBe(true);
    const text = '{"entry":[]}';
    const body = Buffer.from(text);
    expect(validSignature(body, signatureOf('', text), '')).toBe(false);
    expect(validSignature(body, undefined, 'app-secret')).toBe(false);
    expect(validSignature(body, 'sha256=', 'app-secret')).toBe(false);
    expect(validSignature(body, signatureOf('app-secret', text), 'app-secret')).toBe(true);
  });
});

describe("the messages webhook's edits and deletions", () => {
  const from = '5511960000009';
  it("read an edited caption and a deletion by the original message's id", () => {
    expect(
      changeOf({
        id: 'wamid.EDIT',
        from,
        type: 'edit',
        edit: {
          original_message_id: 'wamid.ORIGINAL',
          message: { type: 'image', image: { id: '1', caption: 'nova legenda' } },
        },
      }),
    ).toEqual({
      type: 'edit',
      chatId: from,
      providerMessageId: 'wamid.ORIGINAL',
      body: 'nova legenda',
    });
    expect(
      changeOf({
        id: 'wamid.REVOKE',
        from,
        type: 'revoke',
        revoke: { original_message_id: 'wamid.ORIGINAL' },
      }),
    ).toEqual({ type: 'delete', chatId: from, providerMessageId: 'wamid.ORIGINAL' });
  });

  it('leave out what they cannot apply: no original id, no new text, an odd sender, a plain message', () => {
    expect(changeOf({ id: 'x', from, type: 'revoke', revoke: {} })).toBeUndefined();
    expect(
      changeOf({ id: 'x', from, type: 'edit', edit: { original_message_id: 'wamid.O' } }),
    ).toBeUndefined();
    expect(
      changeOf({
        id: 'x',
        from,
        type: 'edit',
        edit: { original_message_id: 'wamid.O', message: { type: 'image', image: { id: '1' } } },
      }),
    ).toBeUndefined();
    expect(
      changeOf({
        id: 'x',
        from: 'abc',
        type: 'revoke',
        revoke: { original_message_id: 'wamid.O' },
      }),
    ).toBeUndefined();
    expect(changeOf({ id: 'x', from, type: 'text', text: { body: 'oi' } })).toBeUndefined();
  });
});

describe('server-side request forgery through a Cloud API connection', () => {
  /** A service inside the network: nothing the server does may reach it. */
  let internal: { url: string; seen: IncomingMessage[]; close(): Promise<void> };

  beforeAll(async () => {
    const seen: IncomingMessage[] = [];
    const server = createServer((req, res) => {
      seen.push(req);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secrets');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    internal = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  });
  afterAll(() => internal?.close());

  it("never takes a company's Graph API address: the platform's is the only one", async () => {
    const number = '204060801077';
    graph.addNumber(number, settings.accessToken, '+55 11 3000-4077');
    const created = await t.as(token).post('/whatsapp', {
      name: 'Oficial interno',
      provider: 'cloud-api',
      cloudApi: {
        ...settings,
        phoneNumberId: number,
        graphApiUrl: `${internal.url}/v21.0`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect((await t.as(token).post(`/whatsappsession/${id}`)).statusCode).toBe(200);
    // It connects through the platform's Graph API, and only there.
    await expect.poll(async () => (await row(id)).status).toBe('CONNECTED');
    const db = tenantDb(systemContext(t.app.platform.db, companyId));
    expect(await loadCloudApiSettings(db, id)).not.toHaveProperty('graphApiUrl');
    expect(internal.seen).toEqual([]);
  });

  it('never fetches a media URL outside the Graph API, nor where a redirect of it points', async () => {
    const downloads = graph.downloads;
    for (const [label, url] of [
      ['an internal address', `${internal.url}/latest/meta-data`],
      ['a redirect from the Graph API to it', graph.redirectTo(`${internal.url}/admin`)],
      ['a name of this machine', internal.url.replace('127.0.0.1', 'localhost')],
    ] as const) {
      const mediaId = graph.addMediaAt(PHONE_NUMBER_ID, url, 'image/jpeg');
      const { payload, id } = messageWebhook(
        PHONE_NUMBER_ID,
        { phone: '5511960000077' },
        { type: 'image', image: { id: mediaId, mime_type: 'image/jpeg' } },
      );
      // Not stored (Meta keeps the payload and tries again later), and nothing fetched there.
      expect((await post(payload)).status, label).toBe(500);
      const stored = await t.database.db
        .select()
        .from(messages)
        .where(eq(messages.providerMessageId, id));
      expect(stored, label).toEqual([]);
    }
    expect(internal.seen).toEqual([]);
    expect(graph.downloads).toBe(downloads);
    // The client itself asks nothing of a host other than the Graph API's and Meta's media host.
    const client = new GraphClient(settings, {
      outbound: t.app.platform.outbound,
      base: graph.url,
    });
    await expect(client.download('https://media.example.com/file')).rejects.toBeInstanceOf(
      GraphError,
    );
    await expect(client.download(`${internal.url}/x`)).rejects.toBeInstanceOf(GraphError);
    expect(internal.seen).toEqual([]);
  });
});
