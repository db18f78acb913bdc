import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ProviderName } from '@atendi/shared';
import { and, asc, count, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeGraphApi,
  messageWebhook,
  postWebhook,
  statusWebhook,
} from '../../test/fakes/graph-api';
import {
  editUpdate,
  FakeWhatsAppWeb,
  phoneMessage,
  revokeUpdate,
  statusUpdate,
  textContent,
  WA_STATUS,
  type WAMessage,
} from '../../test/fakes/whatsapp-web';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  connectionAuthKeys,
  connections,
  contacts,
  messages,
  simulatorMessages,
  tickets,
} from '../db/schema';
import { systemContext } from '../platform/auth/context';
import type { CloudMessage } from './cloud-api/cloud-api.normalise';
import { simulatorAvatar } from './simulator/simulator.avatar';
import type { SimulatorProvider } from './simulator/simulator.provider';

/**
 * One contract for every provider: what the inbox needs from a messaging network, checked
 * through the database and the realtime emissions. Each provider has a small driver playing the
 * phone and the network: the simulator through its own routes, WhatsApp Web through the fake
 * Baileys socket, the Cloud API through the fake Graph server and signed webhooks.
 */

type Kind = 'text' | 'image' | 'audio' | 'video' | 'document' | 'location' | 'contact' | 'call_log';

type PhoneMessage =
  | { kind: 'text'; body: string; quotedProviderMessageId?: string }
  | {
      kind: 'image' | 'audio' | 'video' | 'document';
      bytes: Buffer;
      mimeType: string;
      fileName?: string;
      caption?: string;
    }
  | { kind: 'location'; latitude: number; longitude: number; name: string }
  | { kind: 'contact'; name: string; phone: string }
  | { kind: 'call_log' };

/** What the network delivered to a phone from the connection. */
interface Received {
  providerMessageId: string;
  kind: string;
  body: string;
  bytes?: Buffer;
  quotedProviderMessageId?: string;
}

interface Driver {
  provider: ProviderName;
  /** The token of the company admin the driver acts for. */
  token(): string;
  kinds: Kind[];
  /** Values that must never reach a realtime payload. */
  secrets: string[];
  create(): Promise<number>;
  /** From a started session to the phone linked. */
  pair(): Promise<void>;
  send(phone: string, name: string, message: PhoneMessage): Promise<string>;
  redeliver(phone: string, providerMessageId: string): Promise<void>;
  /** The phone edits one of its text messages. */
  edit(phone: string, providerMessageId: string, body: string): Promise<void>;
  /** The phone deletes one of its messages for everyone. */
  revoke(phone: string, providerMessageId: string): Promise<void>;
  received(phone: string): Promise<Received[]>;
  /** The phone received (3), read (4) or played (5) the company's messages: the spec's ticks. */
  read(phone: string, providerMessageIds: string[], ack: 3 | 4 | 5): Promise<void>;
  /** Whether the network tells that a voice note was played (5). */
  tellsPlayed: boolean;
  /** Ids of the phone's messages the network told it the company read. */
  readByCompany(phone: string): Promise<string[]>;
  /** Whether each message gets its receipt (else the newest stands for the earlier ones). */
  receiptPerMessage: boolean;
  /** The phone shows a profile picture: its bytes, or undefined where the network has none. */
  givePicture(phone: string): Buffer | undefined;
  /** The link is lost for a moment; the session must come back by itself. */
  drop(): Promise<void>;
  logoutFromPhone(): Promise<void>;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const bytes = (size: number, seed: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256));

const MEDIA_TYPE: Record<Kind, string> = {
  text: 'chat',
  image: 'image',
  audio: 'audio',
  video: 'video',
  document: 'application',
  location: 'locationMessage',
  contact: 'vcard',
  call_log: 'call_log',
};

const vcardOf = (name: string, phone: string) =>
  `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL;waid=${phone}:+${phone}\nEND:VCARD`;

let t: TestServer;
const whatsAppWeb = new FakeWhatsAppWeb();
let graph: FakeGraphApi;

beforeAll(async () => {
  graph = await FakeGraphApi.start();
  const pictures = await whatsAppWeb.env();
  t = await startTestServer(
    {
      ...graph.env,
      OUTBOUND_ALLOW_PRIVATE: `${graph.env.OUTBOUND_ALLOW_PRIVATE},${pictures.OUTBOUND_ALLOW_PRIVATE}`,
    },
    undefined,
    {
      channels: {
        baileys: {
          createSocket: whatsAppWeb.createSocket,
          retry: { maxRetries: 5, baseDelayMs: 20, maxDelayMs: 100 },
        },
        cloudApi: {
          healthCheckMs: 100,
          retry: { maxRetries: 30, baseDelayMs: 20, maxDelayMs: 100 },
        },
      },
    },
  );
});
afterAll(async () => {
  await t?.stop();
  await whatsAppWeb.close();
  await graph?.close();
});

/** A company of its own per provider, with its admin's token. */
async function company() {
  const { company, admin } = await t.make.company();
  return { companyId: company.id, token: (await t.login(admin.email)).token };
}

async function createConnection(token: string, body: Record<string, unknown>) {
  const created = await t.as(token).post('/whatsapp', body);
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: number; token: string };
}

const connectionRow = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;

const waitForStatus = (id: number, status: string) =>
  expect.poll(async () => (await connectionRow(id)).status, { timeout: 10_000 }).toBe(status);

function simulatorDriver(): Driver & { setup(): Promise<void> } {
  let token = '';
  let id = 0;
  /** The simulator's row of each message the phone sent, to edit or delete it. */
  const rowIds = new Map<string, number>();
  const network = () => t.app.channels.provider<SimulatorProvider>('simulator')!.network;
  return {
    provider: 'simulator',
    token: () => token,
    kinds: ['text', 'image', 'audio', 'video', 'document', 'location', 'contact', 'call_log'],
    secrets: [],
    async setup() {
      token = (await company()).token;
    },
    async create() {
      id = (await createConnection(token, { name: 'Simulador', provider: 'simulator' })).id;
      return id;
    },
    async pair() {
      await waitForStatus(id, 'qrcode');
      const { qrcode } = await connectionRow(id);
      const scanned = await t.as(token).post(`/simulator/connections/${id}/scan`, { qrcode });
      expect(scanned.statusCode).toBe(204);
    },
    async send(phone, name, message) {
      const file =
        'bytes' in message
          ? {
              name: message.fileName ?? 'file',
              mimeType: message.mimeType,
              base64: message.bytes.toString('base64'),
            }
          : undefined;
      const body =
        message.kind === 'text'
          ? {
              body: message.body,
              ...(message.quotedProviderMessageId
                ? { quotedProviderMessageId: message.quotedProviderMessageId }
                : {}),
            }
          : message.kind === 'location'
            ? {
                body: '',
                location: {
                  latitude: message.latitude,
                  longitude: message.longitude,
                  name: message.name,
                },
              }
            : message.kind === 'contact'
              ? { body: message.name, vcard: vcardOf(message.name, message.phone) }
              : { body: 'caption' in message ? (message.caption ?? '') : '' };
      const { kind } = message;
      const sent = await t.as(token).post(`/simulator/connections/${id}/phones/${phone}/messages`, {
        name,
        kind,
        ...body,
        ...(file ? { file } : {}),
      });
      expect(sent.statusCode, sent.body).toBe(201);
      rowIds.set(sent.json().providerMessageId, sent.json().id);
      return sent.json().providerMessageId;
    },
    async edit(phone, providerMessageId, body) {
      const path = `/simulator/connections/${id}/phones/${phone}/messages/${rowIds.get(providerMessageId)}`;
      expect((await t.as(token).put(path, { body })).statusCode).toBe(200);
    },
    async revoke(phone, providerMessageId) {
      const path = `/simulator/connections/${id}/phones/${phone}/messages/${rowIds.get(providerMessageId)}`;
      expect((await t.as(token).delete(path)).statusCode).toBe(200);
    },
    async redeliver(_phone, providerMessageId) {
      await t.database.db
        .update(simulatorMessages)
        .set({ deliveredAt: null })
        .where(eq(simulatorMessages.providerMessageId, providerMessageId));
      await network().signal({ type: 'inbound', connectionId: id });
    },
    async received(phone) {
      const rows = await t.database.db
        .select()
        .from(simulatorMessages)
        .where(
          and(
            eq(simulatorMessages.connectionId, id),
            eq(simulatorMessages.phone, phone),
            eq(simulatorMessages.direction, 'outbound'),
          ),
        )
        .orderBy(asc(simulatorMessages.id));
      return Promise.all(
        rows.map(async (row) => ({
          providerMessageId: row.providerMessageId,
          kind: row.kind,
          body: row.body,
          ...(row.mediaPath
            ? { bytes: await readFile(t.app.platform.storage.pathOf(row.mediaPath)) }
            : {}),
          ...(row.quotedProviderMessageId
            ? { quotedProviderMessageId: row.quotedProviderMessageId }
            : {}),
        })),
      );
    },
    async read(phone, _ids, ack) {
      await t.as(token).post(`/simulator/connections/${id}/phones/${phone}/read`, { ack });
    },
    tellsPlayed: true,
    receiptPerMessage: true,
    givePicture: (phone) => simulatorAvatar(phone),
    async readByCompany(phone) {
      const rows = await t.database.db
        .select({ providerMessageId: simulatorMessages.providerMessageId })
        .from(simulatorMessages)
        .where(
          and(
            eq(simulatorMessages.connectionId, id),
            eq(simulatorMessages.phone, phone),
            eq(simulatorMessages.direction, 'inbound'),
            gte(simulatorMessages.ack, 4),
          ),
        );
      return rows.map((row) => row.providerMessageId);
    },
    async drop() {
      // The simulated network has no link to lose: the session is restarted and must come back
      // from the pairing it stored.
      await t.app.channelManager.command({ connectionId: id, action: 'restart' });
    },
    async logoutFromPhone() {
      await t.as(token).post(`/simulator/connections/${id}/disconnect`);
    },
  };
}

function baileysDriver(): Driver & { setup(): Promise<void> } {
  let token = '';
  let id = 0;
  const sent = new Map<string, WAMessage>();
  const jid = (phone: string) => `${phone}@s.whatsapp.net`;
  return {
    provider: 'beta',
    token: () => token,
    kinds: ['text', 'image', 'audio', 'video', 'document', 'location', 'contact', 'call_log'],
    secrets: [],
    async setup() {
      token = (await company()).token;
    },
    async create() {
      id = (await createConnection(token, { name: 'WhatsApp Web', provider: 'beta' })).id;
      return id;
    },
    async pair() {
      await waitForStatus(id, 'qrcode');
      whatsAppWeb.scan(id, '5511955550000');
    },
    async send(phone, name, message) {
      if (message.kind === 'call_log') {
        const callId = `CALL${Math.random().toString(16).slice(2, 14).toUpperCase()}`;
        whatsAppWeb.call(id, {
          chatId: jid(phone),
          from: jid(phone),
          id: callId,
          date: new Date(),
          status: 'terminate',
          offline: false,
          isVideo: false,
        });
        return callId;
      }
      const content =
        message.kind === 'text'
          ? textContent(message.body, message.quotedProviderMessageId)
          : message.kind === 'location'
            ? {
                locationMessage: {
                  degreesLatitude: message.latitude,
                  degreesLongitude: message.longitude,
                  name: message.name,
                },
              }
            : message.kind === 'contact'
              ? {
                  contactMessage: {
                    displayName: message.name,
                    vcard: vcardOf(message.name, message.phone),
                  },
                }
              : await whatsAppWeb.media(message.kind, message.bytes, {
                  mimetype: message.mimeType,
                  ...(message.caption ? { caption: message.caption } : {}),
                  ...(message.fileName ? { fileName: message.fileName } : {}),
                });
      const waMessage = phoneMessage({ phone, pushName: name, content });
      sent.set(waMessage.key.id!, waMessage);
      whatsAppWeb.receive(id, waMessage);
      return waMessage.key.id!;
    },
    async edit(_phone, providerMessageId, body) {
      whatsAppWeb.update(id, editUpdate(sent.get(providerMessageId)!.key, body));
    },
    async revoke(_phone, providerMessageId) {
      whatsAppWeb.update(id, revokeUpdate(sent.get(providerMessageId)!.key));
    },
    async redeliver(_phone, providerMessageId) {
      whatsAppWeb.receive(id, sent.get(providerMessageId)!);
    },
    async received(phone) {
      return whatsAppWeb
        .sentBy(id)
        .filter((send) => send.jid === jid(phone))
        .map((send) => {
          const content = send.content as Record<string, unknown>;
          const kind = ['image', 'video', 'audio', 'document'].find((key) => key in content);
          return {
            providerMessageId: send.id,
            kind: kind ?? 'text',
            body: String(content.text ?? content.caption ?? ''),
            ...(send.media ? { bytes: send.media } : {}),
            ...(send.options?.quoted?.key.id
              ? { quotedProviderMessageId: send.options.quoted.key.id }
              : {}),
          };
        });
    },
    receiptPerMessage: true,
    givePicture(phone) {
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), bytes(2000, 5)]);
      whatsAppWeb.setProfilePicture(jid(phone), jpeg);
      return jpeg;
    },
    async readByCompany(phone) {
      return whatsAppWeb.readBy(id, jid(phone));
    },
    tellsPlayed: true,
    async read(phone, ids, ack) {
      const status = { 3: WA_STATUS.DELIVERY_ACK, 4: WA_STATUS.READ, 5: WA_STATUS.PLAYED }[ack];
      whatsAppWeb.update(
        id,
        ...ids.map((messageId) => statusUpdate(jid(phone), messageId, status)),
      );
    },
    async drop() {
      whatsAppWeb.drop(id);
    },
    async logoutFromPhone() {
      whatsAppWeb.logoutFromPhone(id);
    },
  };
}

function cloudApiDriver(): Driver & { setup(): Promise<void> } {
  let token = '';
  let id = 0;
  const phoneNumberId = '109876543210987';
  const settings = {
    phoneNumberId,
    accessToken: `EAAG${'x'.repeat(8)}${Math.random().toString(36).slice(2)}TOKEN`,
    appSecret: `app-secret-${Math.random().toString(36).slice(2)}`,
    verifyToken: `verify-${Math.random().toString(36).slice(2)}`,
  };
  const payloads = new Map<string, Parameters<typeof postWebhook>[3]>();
  const post = async (payload: Parameters<typeof postWebhook>[3]) => {
    const answer = await postWebhook(t.url, id, settings.appSecret, payload);
    expect(answer.status, await answer.clone().text()).toBe(200);
  };
  return {
    provider: 'cloud-api',
    token: () => token,
    // The Cloud API reports no calls.
    kinds: ['text', 'image', 'audio', 'video', 'document', 'location', 'contact'],
    secrets: [settings.accessToken, settings.appSecret, settings.verifyToken],
    async setup() {
      token = (await company()).token;
      graph.addNumber(phoneNumberId, settings.accessToken);
    },
    async create() {
      id = (
        await createConnection(token, {
          name: 'Cloud API',
          provider: 'cloud-api',
          token: () => token,
          cloudApi: settings,
        })
      ).id;
      return id;
    },
    async pair() {
      // The Cloud API has no phone to link: the session checks its token with the Graph API.
    },
    async send(phone, name, message) {
      let body: Omit<CloudMessage, 'from' | 'id' | 'timestamp'>;
      if (message.kind === 'text') {
        body = {
          type: 'text',
          text: { body: message.body },
          ...(message.quotedProviderMessageId
            ? { context: { id: message.quotedProviderMessageId, from: '15550100' } }
            : {}),
        };
      } else if (message.kind === 'location') {
        body = {
          type: 'location',
          location: {
            latitude: message.latitude,
            longitude: message.longitude,
            name: message.name,
          },
        };
      } else if (message.kind === 'contact') {
        body = {
          type: 'contacts',
          contacts: [
            {
              name: { formatted_name: message.name, first_name: message.name },
              phones: [{ phone: `+${message.phone}`, wa_id: message.phone, type: 'CELL' }],
            },
          ],
        };
      } else if (message.kind === 'call_log') {
        throw new Error('the Cloud API reports no calls');
      } else {
        const mediaId = graph.addMedia(phoneNumberId, message.bytes, message.mimeType);
        body = {
          type: message.kind,
          [message.kind]: {
            id: mediaId,
            mime_type: message.mimeType,
            ...(message.caption ? { caption: message.caption } : {}),
            ...(message.fileName ? { filename: message.fileName } : {}),
          },
        };
      }
      const { payload, id: messageId } = messageWebhook(phoneNumberId, { phone, name }, body);
      payloads.set(messageId, payload);
      await post(payload);
      return messageId;
    },
    // Meta sends these only for numbers also on the WhatsApp Business app ("coexistence"); the
    // payloads follow its messages webhook reference (types 'edit' and 'revoke').
    async edit(phone, providerMessageId, body) {
      const { payload } = messageWebhook(
        phoneNumberId,
        { phone },
        {
          type: 'edit',
          edit: {
            original_message_id: providerMessageId,
            message: { type: 'text', text: { body } },
          },
        },
      );
      await post(payload);
    },
    async revoke(phone, providerMessageId) {
      const { payload } = messageWebhook(
        phoneNumberId,
        { phone },
        { type: 'revoke', revoke: { original_message_id: providerMessageId } },
      );
      await post(payload);
    },
    async redeliver(_phone, providerMessageId) {
      await post(payloads.get(providerMessageId)!);
    },
    async received(phone) {
      return graph
        .sentBy(phoneNumberId)
        .filter((send) => send.body.to === phone)
        .map((send) => {
          const type = String(send.body.type);
          const content = send.body[type] as { body?: string; caption?: string; id?: string };
          const context = send.body.context as { message_id?: string } | undefined;
          const upload = content.id ? graph.uploads.get(content.id) : undefined;
          return {
            providerMessageId: send.id,
            kind: type,
            body: content.body ?? content.caption ?? '',
            ...(upload ? { bytes: upload.bytes } : {}),
            ...(context?.message_id ? { quotedProviderMessageId: context.message_id } : {}),
          };
        });
    },
    // Marking the newest message read marks the earlier ones of the chat too.
    receiptPerMessage: false,
    // The Cloud API shows no profile pictures.
    givePicture: () => undefined,
    async readByCompany() {
      return graph.readBy(phoneNumberId);
    },
    // Its statuses are sent, delivered, read and failed: nothing tells a played voice note.
    tellsPlayed: false,
    async read(phone, ids, ack) {
      if (ack === 5) throw new Error('the Cloud API tells no played status');
      await post(
        statusWebhook(
          phoneNumberId,
          ids.map((messageId) => ({
            id: messageId,
            status: ack === 4 ? 'read' : 'delivered',
            recipient_id: phone,
          })),
        ),
      );
    },
    async drop() {
      // A Graph outage: the session's checks fail until it is back.
      graph.setDown(true);
      await expect
        .poll(async () => (await connectionRow(id)).status, { timeout: 10_000 })
        .toBe('OPENING');
      graph.setDown(false);
    },
    async logoutFromPhone() {
      // The number is removed from the business account: its token stops working.
      graph.revoke(settings.accessToken);
    },
  };
}

/** Strings under a 'private' key of a stored session (private keys, as base64). */
function privateStrings(value: unknown, underPrivate = false): string[] {
  if (typeof value === 'string') return underPrivate && value.length >= 16 ? [value] : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    privateStrings(inner, underPrivate || key === 'private'),
  );
}

describe.each([
  { name: 'simulator', make: simulatorDriver },
  { name: 'beta (WhatsApp Web, fake Baileys socket)', make: baileysDriver },
  { name: 'cloud-api (fake Graph API)', make: cloudApiDriver },
])('provider contract: $name', ({ make }) => {
  const driver = make();
  let connectionId = 0;
  let companyId = 0;
  let apiToken = '';
  const secrets = new Set<string>();
  const phone = '5511970000001';
  const sent: Partial<Record<Kind, string>> = {};
  let quotedReply = '';

  const countMessages = async () =>
    (
      await t.database.db
        .select({ n: count() })
        .from(messages)
        .where(eq(messages.connectionId, connectionId))
    )[0]!.n;

  const messageRows = () =>
    t.database.db
      .select()
      .from(messages)
      .where(eq(messages.connectionId, connectionId))
      .orderBy(asc(messages.id));

  const sessions = () =>
    t.emitted
      .filter((e) => e.event === `company-${companyId}-whatsappSession`)
      .map((e) => (e.payload as { session: { id: number; status: string } }).session)
      .filter((session) => session.id === connectionId);

  /** Collects what the session stored as keys, to check none of it is ever emitted. */
  async function collectStoredSecrets() {
    const rows = await t.database.db
      .select({ value: connectionAuthKeys.value })
      .from(connectionAuthKeys)
      .where(eq(connectionAuthKeys.connectionId, connectionId));
    for (const row of rows) for (const secret of privateStrings(row.value)) secrets.add(secret);
  }

  beforeAll(async () => {
    await driver.setup();
  });

  it('pairs: the started session reaches CONNECTED', async () => {
    connectionId = await driver.create();
    const row = await connectionRow(connectionId);
    companyId = row.companyId;
    apiToken = row.token!;
    expect(row.provider).toBe(driver.provider);
    const started = await t.as(driver.token()).post(`/whatsappsession/${connectionId}`);
    expect(started.statusCode).toBe(200);
    await driver.pair();
    await waitForStatus(connectionId, 'CONNECTED');
    expect((await connectionRow(connectionId)).qrcode).toBe('');
    await collectStoredSecrets();
  });

  it('stores every message type once, with its media type, media bytes and sender file name', async () => {
    const plan: [Kind, PhoneMessage][] = [
      ['text', { kind: 'text', body: 'Olá, preciso de ajuda' }],
      ['image', { kind: 'image', bytes: PNG, mimeType: 'image/png', caption: 'foto' }],
      ['audio', { kind: 'audio', bytes: bytes(300, 1), mimeType: 'audio/ogg' }],
      ['video', { kind: 'video', bytes: bytes(700, 2), mimeType: 'video/mp4' }],
      [
        'document',
        {
          kind: 'document',
          bytes: bytes(500, 3),
          mimeType: 'application/pdf',
          fileName: '../contrato final.pdf',
        },
      ],
      ['location', { kind: 'location', latitude: -23.55052, longitude: -46.633308, name: 'Sé' }],
      ['contact', { kind: 'contact', name: 'Joana Lima', phone: '5511912345678' }],
      ['call_log', { kind: 'call_log' }],
    ];
    for (const [kind, message] of plan) {
      if (!driver.kinds.includes(kind)) continue;
      sent[kind] = await driver.send(phone, 'Maria Souza', message);
      // One after another, so the stored order is the sent order.
      await expect.poll(countMessages, { timeout: 10_000 }).toBe(Object.keys(sent).length);
    }
    quotedReply = await driver.send(phone, 'Maria Souza', {
      kind: 'text',
      body: 'respondendo',
      quotedProviderMessageId: sent.text!,
    });
    await expect.poll(countMessages, { timeout: 10_000 }).toBe(Object.keys(sent).length + 1);

    const rows = await messageRows();
    const byId = new Map(rows.map((row) => [row.providerMessageId, row]));
    for (const kind of driver.kinds) {
      const row = byId.get(sent[kind]!);
      expect(row, kind).toBeDefined();
      expect(row!.mediaType, kind).toBe(MEDIA_TYPE[kind]);
      expect(row!.fromMe, kind).toBe(false);
      // It reached the company: delivered, as the spec numbers it.
      expect(row!.ack, kind).toBe(3);
    }
    expect(byId.get(sent.text!)!.body).toBe('Olá, preciso de ajuda');
    for (const [kind, message] of plan) {
      if (!('bytes' in message) || !driver.kinds.includes(kind)) continue;
      const row = byId.get(sent[kind]!)!;
      // Stored under a generated name; the sender's name is metadata only.
      expect(row.mediaPath, kind).toMatch(new RegExp(`^${companyId}/[0-9a-f-]{36}\\.\\w+$`));
      expect(await readFile(t.app.platform.storage.pathOf(row.mediaPath!))).toEqual(message.bytes);
    }
    expect(byId.get(sent.document!)!.mediaName).toBe('../contrato final.pdf');
    // The viewers read a location's map link and a contact card's vCard from the body.
    expect(byId.get(sent.location!)!.body).toMatch(
      /^https:\/\/maps\.google\.com\/maps\?q=-23\.55052%2C-46\.633308\b/,
    );
    expect(byId.get(sent.contact!)!.body).toContain('Joana Lima');
    expect(byId.get(sent.contact!)!.body).toContain('5511912345678');
    const reply = byId.get(quotedReply)!;
    expect(reply.quotedMsgId).toBe(byId.get(sent.text!)!.id);

    const [ticket] = await t.database.db
      .select({ unread: tickets.unreadMessages, name: contacts.name })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, phone)));
    expect(ticket).toEqual({ unread: rows.length, name: 'Maria Souza' });
  });

  it('gives a contact first seen its profile picture where the network shows one', async () => {
    const number = '5511970000077';
    const picture = driver.givePicture(number);
    const marker = await driver.send(number, 'Paula Reis', { kind: 'text', body: 'minha foto' });
    await expect
      .poll(async () => (await messageRows()).some((row) => row.providerMessageId === marker))
      .toBe(true);
    const pictureUrl = async () =>
      (
        await t.database.db
          .select({ url: contacts.profilePicUrl })
          .from(contacts)
          .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)))
      )[0]!.url;
    if (!picture) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await pictureUrl()).toBe('');
      return;
    }
    await expect.poll(pictureUrl, { timeout: 10_000 }).toMatch(/^\/media\//);
    const served = await t.app.inject({ method: 'GET', url: await pictureUrl() });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(picture)).toBe(true);
  });

  it('stores a redelivered message once', async () => {
    const before = await countMessages();
    await driver.redeliver(phone, sent.text!);
    await driver.redeliver(phone, sent.image!);
    // A later message of the same chat is stored after the redelivered ones were handled.
    const marker = await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'depois' });
    await expect.poll(countMessages, { timeout: 10_000 }).toBe(before + 1);
    const copies = (await messageRows()).filter((row) =>
      [sent.text, sent.image, marker].includes(row.providerMessageId!),
    );
    expect(copies).toHaveLength(3);
    const files = (await messageRows()).filter((row) => row.mediaPath).map((row) => row.mediaPath);
    expect(new Set(files).size).toBe(files.length);
  });

  it('keeps one contact and one live ticket per phone under concurrent deliveries', async () => {
    const before = await countMessages();
    const phones = Array.from({ length: 6 }, (_, i) => `55219800000${10 + i}`);
    await Promise.all(
      phones.flatMap((number) =>
        Array.from({ length: 4 }, (_, n) =>
          driver.send(number, `Cliente ${number.slice(-2)}`, { kind: 'text', body: `msg ${n}` }),
        ),
      ),
    );
    await expect.poll(countMessages, { timeout: 15_000 }).toBe(before + 24);
    for (const number of phones) {
      const found = await t.database.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
      expect(found, number).toHaveLength(1);
      const live = await t.database.db
        .select({ unread: tickets.unreadMessages })
        .from(tickets)
        .where(and(eq(tickets.contactId, found[0]!.id), eq(tickets.whatsappId, connectionId)));
      expect(live, number).toEqual([{ unread: 4 }]);
    }
  });

  it('sends text, media and a quoted reply that reach the phone under the stored id', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const [ticket] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, phone)));
    const outbound = t.app.services.outbound;
    const text = await outbound.send(ctx, ticket!.id, { body: 'Bom dia! Como posso ajudar?' });
    // Sent, as the spec numbers it (1 would be still waiting).
    expect(text.ack).toBe(2);
    const stored = await t.app.platform.storage.save(companyId, 'image/png', Readable.from(PNG));
    const image = await outbound.send(ctx, ticket!.id, {
      body: 'segue a imagem',
      media: { key: stored.key, mimeType: 'image/png', fileName: 'imagem.png', kind: 'image' },
    });
    const quotedRow = (await messageRows()).find((row) => row.providerMessageId === sent.text)!;
    const reply = await outbound.send(ctx, ticket!.id, {
      body: 'sobre isso',
      quotedMsgId: quotedRow.id,
    });

    const ids = async (messageId: number) =>
      (await t.database.db.select().from(messages).where(eq(messages.id, messageId)))[0]!;
    const [textRow, imageRow, replyRow] = await Promise.all([
      ids(text.id),
      ids(image.id),
      ids(reply.id),
    ]);
    const received = await driver.received(phone);
    expect(received).toContainEqual(
      expect.objectContaining({
        providerMessageId: textRow.providerMessageId,
        kind: 'text',
        body: 'Bom dia! Como posso ajudar?',
      }),
    );
    const gotImage = received.find((r) => r.providerMessageId === imageRow.providerMessageId);
    expect(gotImage).toMatchObject({ kind: 'image', body: 'segue a imagem' });
    expect(gotImage!.bytes).toEqual(PNG);
    expect(received.find((r) => r.providerMessageId === replyRow.providerMessageId)).toMatchObject({
      body: 'sobre isso',
      quotedProviderMessageId: sent.text,
    });
    for (const row of [textRow, imageRow, replyRow]) expect(row.ack).toBe(2);
  });

  it("numbers the network's ticks as the spec does (3 delivered, 4 read, 5 played) and moves them forward only", async () => {
    const outboundRows = (await messageRows()).filter((row) => row.fromMe);
    const ids = outboundRows.map((row) => row.providerMessageId!);
    const acks = async () =>
      (await messageRows()).filter((row) => row.fromMe).map((row) => row.ack);
    const last = driver.tellsPlayed ? 5 : 4;
    for (const ack of [3, 4, 5] as const) {
      if (ack > last) break;
      await driver.read(phone, ids, ack);
      await expect.poll(acks, { timeout: 10_000 }).toEqual(ids.map(() => ack));
    }
    await driver.read(phone, ids, 3);
    // Nothing to wait for when nothing changes: a later message proves the update was handled.
    const marker = await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'lido' });
    await expect
      .poll(async () => (await messageRows()).some((row) => row.providerMessageId === marker))
      .toBe(true);
    expect(await acks()).toEqual(ids.map(() => last));
    const updates = t.emitted.filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        (e.payload as { action: string; message: { ack: number; fromMe: boolean } }).action ===
          'update',
    );
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.map((e) => (e.payload as { message: { ack: number } }).message.ack)).toContain(
      last,
    );
  });

  it('tells the phone its messages were read when an agent opens the ticket, never for ours', async () => {
    const newest = await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'alguém aí?' });
    await expect
      .poll(async () => (await messageRows()).some((row) => row.providerMessageId === newest))
      .toBe(true);
    const [ticket] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, phone)));
    const rows = await messageRows();
    const theirs = rows.filter((row) => !row.fromMe && row.ticketId === ticket!.id);
    const unread = theirs.filter((row) => !row.read).map((row) => row.providerMessageId!);
    expect(unread).toContain(newest);
    expect(await driver.readByCompany(phone)).toEqual([]);

    const opened = await t.as(driver.token()).get(`/messages/${ticket!.id}`);
    expect(opened.statusCode).toBe(200);
    await expect.poll(() => driver.readByCompany(phone), { timeout: 10_000 }).toContain(newest);
    const told = await driver.readByCompany(phone);
    if (driver.receiptPerMessage) {
      // The newest 50 at most: what the phone shows.
      expect(new Set(told)).toEqual(new Set(unread.slice(-50)));
    }
    const ours = rows.filter((row) => row.fromMe).map((row) => row.providerMessageId);
    expect(told.filter((told) => ours.includes(told))).toEqual([]);

    // Nothing is unread now: opening it again tells the phone nothing more.
    const marker = await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'ok' });
    await expect
      .poll(async () => (await messageRows()).some((row) => row.providerMessageId === marker))
      .toBe(true);
    await t.as(driver.token()).get(`/messages/${ticket!.id}`);
    await expect.poll(() => driver.readByCompany(phone), { timeout: 10_000 }).toContain(marker);
    const again = await driver.readByCompany(phone);
    expect(again.length).toBe(told.length + 1);
  });

  it("applies the phone's edits and deletions to its stored messages, in the chat's order", async () => {
    const original = await driver.send(phone, 'Maria Souza', {
      kind: 'text',
      body: 'endereço errado',
    });
    const stored = async () =>
      (await messageRows()).find((row) => row.providerMessageId === original);
    await expect.poll(stored, { timeout: 10_000 }).toBeDefined();
    const before = await countMessages();

    await driver.edit(phone, original, 'endereço certo');
    // A later message of the chat is stored after the edit was applied.
    const marker = await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'ok?' });
    await expect
      .poll(async () => (await messageRows()).some((row) => row.providerMessageId === marker), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await stored()).toMatchObject({
      body: 'endereço certo',
      isEdited: true,
      isDeleted: false,
    });

    await driver.revoke(phone, original);
    await expect.poll(async () => (await stored())!.isDeleted, { timeout: 10_000 }).toBe(true);
    // The changes are no messages of their own.
    expect(await countMessages()).toBe(before + 1);
    // Announced to the agents' screens: the edit, then the deletion.
    const announced = t.emitted.filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        (e.payload as { action: string }).action === 'update' &&
        (e.payload as { message: { isEdited: boolean } }).message.isEdited,
    );
    expect(
      announced.map((e) => (e.payload as { message: { isDeleted: boolean } }).message.isDeleted),
    ).toEqual(expect.arrayContaining([false, true]));
  });

  it('comes back by itself when the network drops', async () => {
    const seen = sessions().length;
    await driver.drop();
    await expect
      .poll(
        () =>
          sessions()
            .slice(seen)
            .some((session) => session.status !== 'CONNECTED'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await expect
      .poll(() => sessions().slice(seen).at(-1)?.status, { timeout: 10_000 })
      .toBe('CONNECTED');
    const before = await countMessages();
    await driver.send(phone, 'Maria Souza', { kind: 'text', body: 'voltou?' });
    await expect.poll(countMessages, { timeout: 10_000 }).toBe(before + 1);
    await collectStoredSecrets();
  });

  it('turns a logout on the phone into DISCONNECTED', async () => {
    await driver.logoutFromPhone();
    await waitForStatus(connectionId, 'DISCONNECTED');
    expect((await connectionRow(connectionId)).qrcode).toBe('');
  });

  it('still opens a ticket when the read receipts cannot be sent', async () => {
    const [ticket] = await t.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(and(eq(tickets.whatsappId, connectionId), eq(contacts.number, phone)));
    await t.database.db
      .update(messages)
      .set({ read: false })
      .where(and(eq(messages.ticketId, ticket!.id), eq(messages.fromMe, false)));
    await t.database.db
      .update(tickets)
      .set({ unreadMessages: 3 })
      .where(eq(tickets.id, ticket!.id));
    const opened = await t.as(driver.token()).get(`/messages/${ticket!.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().ticket.unreadMessages).toBe(0);
  });

  it("never emits the connection's token, its secrets or its session keys", async () => {
    for (const secret of driver.secrets) secrets.add(secret);
    if (driver.provider === 'beta') expect(secrets.size).toBeGreaterThan(5);
    const emitted = JSON.stringify(t.emitted);
    expect(emitted).not.toContain(apiToken);
    for (const secret of secrets)
      expect(emitted.includes(secret), 'a secret was emitted').toBe(false);
    // Nor answered: the connection as the API shows it to its admin.
    const answered = (await t.as(driver.token()).get(`/whatsapp/${connectionId}`)).body;
    for (const secret of secrets)
      expect(answered.includes(secret), 'a secret was answered').toBe(false);
  });
});
