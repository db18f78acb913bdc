import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DisconnectReason, proto } from '@whiskeysockets/baileys';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  editUpdate,
  FakeWhatsAppWeb,
  phoneMessage,
  revokeUpdate,
  textContent,
} from '../../../test/fakes/whatsapp-web';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connectionAuthKeys, connections, contacts, messages, tickets } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import { BaileysAuthStore } from './baileys.auth';
import { CALLS_DISABLED_REPLY } from './baileys.provider';

const fake = new FakeWhatsAppWeb();
const MAX_RETRIES = 3;
let t: TestServer;
let token: string;
let companyId: number;
let otherToken: string;

beforeAll(async () => {
  t = await startTestServer(await fake.env(), undefined, {
    channels: {
      baileys: {
        createSocket: fake.createSocket,
        retry: { maxRetries: MAX_RETRIES, baseDelayMs: 10, maxDelayMs: 40 },
      },
    },
  });
  const plan = await t.make.plan({ connections: 20 });
  const { company, admin } = await t.make.company({ planId: plan.id });
  companyId = company.id;
  token = (await t.login(admin.email)).token;
  otherToken = (await t.login((await t.make.company()).admin.email)).token;
});
afterAll(async () => {
  await t?.stop();
  await fake.close();
});

let names = 0;
async function newConnection(provider = 'beta') {
  const created = await t.as(token).post('/whatsapp', { name: `WhatsApp ${++names}`, provider });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as number;
}

const row = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;

const statusOf = async (id: number) => (await row(id)).status;

const waitFor = (id: number, status: string) =>
  expect.poll(() => statusOf(id), { timeout: 10_000 }).toBe(status);

const keysOf = async (id: number) =>
  (
    await t.database.db
      .select({ key: connectionAuthKeys.key })
      .from(connectionAuthKeys)
      .where(eq(connectionAuthKeys.connectionId, id))
      .orderBy(asc(connectionAuthKeys.key))
  ).map((r) => r.key);

const start = (id: number) => t.as(token).post(`/whatsappsession/${id}`);

/** Waits without `expect` (usable in hooks). */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A started connection, paired by scanning its QR. */
async function connected(phone: string) {
  const id = await newConnection();
  await start(id);
  await until(async () => (await statusOf(id)) === 'qrcode');
  fake.scan(id, phone);
  await until(async () => (await statusOf(id)) === 'CONNECTED');
  return id;
}

const sessions = (id: number) =>
  t.emitted
    .filter((e) => e.event === `company-${companyId}-whatsappSession`)
    .map((e) => (e.payload as { session: { id: number; status: string; qrcode: string } }).session)
    .filter((session) => session.id === id);

describe('session keys in PostgreSQL', () => {
  let store: BaileysAuthStore;
  let id: number;

  beforeAll(async () => {
    id = await newConnection();
    store = new BaileysAuthStore(tenantDb(systemContext(t.app.platform.db, companyId)), id);
  });

  it('keeps each key in a row of its own, binary values intact, and deletes keys set to null', async () => {
    const state = await store.load();
    const preKey = { public: Buffer.from('a'.repeat(32)), private: Buffer.from('b'.repeat(32)) };
    await state.keys.set({
      'pre-key': { '1': preKey, '2': preKey },
      session: { '5511999990000.0': new Uint8Array([1, 2, 3]) },
      'app-state-sync-key': { AAAA: { keyData: new Uint8Array([9, 9]), timestamp: 5 } },
    });
    expect(await keysOf(id)).toEqual([
      'baileys:app-state-sync-key:AAAA',
      'baileys:pre-key:1',
      'baileys:pre-key:2',
      'baileys:session:5511999990000.0',
    ]);
    const found = await state.keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(found)).toEqual(['1', '2']);
    expect(Buffer.from(found['1']!.private)).toEqual(preKey.private);
    const sessions = await state.keys.get('session', ['5511999990000.0']);
    expect([...sessions['5511999990000.0']!]).toEqual([1, 2, 3]);
    const appKey = (await state.keys.get('app-state-sync-key', ['AAAA'])).AAAA!;
    expect(appKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect([...appKey.keyData!]).toEqual([9, 9]);

    await state.keys.set({ 'pre-key': { '1': null } });
    expect(await keysOf(id)).not.toContain('baileys:pre-key:1');
  });

  it('writes in the order they were made, each one committed when it resolves', async () => {
    const state = await store.load();
    const writes = Array.from({ length: 25 }, (_, i) =>
      state.keys.set({ 'sender-key-memory': { group: { [`p${i}`]: true } } }),
    );
    const committed: boolean[] = [];
    await Promise.all(
      writes.map((write, i) =>
        Promise.resolve(write).then(async () => {
          const [stored] = await t.database.db
            .select({ value: connectionAuthKeys.value })
            .from(connectionAuthKeys)
            .where(
              and(
                eq(connectionAuthKeys.connectionId, id),
                eq(connectionAuthKeys.key, 'baileys:sender-key-memory:group'),
              ),
            );
          // Written by this call or a later one: never an older value.
          const at = Number(Object.keys(stored!.value as object)[0]!.slice(1));
          committed.push(at >= i);
        }),
      ),
    );
    expect(committed.every(Boolean)).toBe(true);
    expect(await state.keys.get('sender-key-memory', ['group'])).toEqual({
      group: { p24: true },
    });
  });

  it('stores the creds as one key and reads them back', async () => {
    const state = await store.load();
    state.creds.me = { id: '5511988887777:3@s.whatsapp.net', name: 'Loja' };
    await store.saveCreds(state.creds);
    const again = await store.load();
    expect(again.creds.me).toEqual(state.creds.me);
    expect(Buffer.from(again.creds.noiseKey.private)).toEqual(
      Buffer.from(state.creds.noiseKey.private),
    );
    expect(again.creds.registrationId).toBe(state.creds.registrationId);
  });

  it("wipes its connection's keys only", async () => {
    const other = await newConnection();
    const otherStore = new BaileysAuthStore(
      tenantDb(systemContext(t.app.platform.db, companyId)),
      other,
    );
    await otherStore.saveCreds((await otherStore.load()).creds);
    await store.wipe();
    expect(await keysOf(id)).toEqual([]);
    expect(await keysOf(other)).toEqual(['baileys:creds']);
  });
});

describe('WhatsApp Web login and connection', () => {
  it('shows each new QR, then connects when the phone scans it, keeping its keys in rows', async () => {
    const id = await newConnection();
    await start(id);
    await waitFor(id, 'qrcode');
    const first = (await row(id)).qrcode;
    expect(first).toMatch(/^2@.+,.+,.+,.+$/);
    fake.nextQr(id);
    await expect.poll(async () => (await row(id)).qrcode).not.toBe(first);
    const second = (await row(id)).qrcode;
    expect(
      sessions(id)
        .filter((s) => s.status === 'qrcode')
        .map((s) => s.qrcode),
    ).toEqual([first, second]);

    fake.scan(id, '5511944440000');
    await waitFor(id, 'CONNECTED');
    const connectedRow = await row(id);
    // The pairing dialog closes: the QR is empty once connected.
    expect(connectedRow).toMatchObject({ qrcode: '', number: '5511944440000', retries: 0 });
    // WhatsApp asks for a new socket after pairing; the second one logs in.
    expect(fake.sockets(id)).toHaveLength(2);
    expect(await keysOf(id)).toEqual(
      expect.arrayContaining(['baileys:creds', 'baileys:pre-key:1', 'baileys:pre-key:2']),
    );
    const [creds] = await t.database.db
      .select({ value: connectionAuthKeys.value })
      .from(connectionAuthKeys)
      .where(
        and(eq(connectionAuthKeys.connectionId, id), eq(connectionAuthKeys.key, 'baileys:creds')),
      );
    expect(creds!.value).toMatchObject({ me: { id: '5511944440000:11@s.whatsapp.net' } });
  });

  it('logs in again from the stored keys after a restart, without a QR', async () => {
    const id = await connected('5511944440001');
    const before = fake.sockets(id).length;
    const seen = sessions(id).length;
    await start(id);
    await expect
      .poll(() => sessions(id).slice(seen).at(-1)?.status, { timeout: 10_000 })
      .toBe('CONNECTED');
    expect(fake.sockets(id).length).toBe(before + 1);
    expect(fake.socket(id).qrCount).toBe(0);
    expect(
      sessions(id)
        .slice(seen)
        .some((s) => s.status === 'qrcode'),
    ).toBe(false);
  });

  it('reconnects after a drop with one set of listeners per socket, none left on the old one', async () => {
    const id = await connected('5511944440002');
    const old = fake.socket(id);
    expect(old.ev.listenerCount('messages.upsert')).toBe(1);
    fake.drop(id);
    await expect.poll(() => fake.sockets(id).length, { timeout: 10_000 }).toBe(3);
    await waitFor(id, 'CONNECTED');
    expect(Object.values(old.listenersAfterClose!).every((n) => n === 0)).toBe(true);
    const current = fake.socket(id);
    for (const event of [
      'connection.update',
      'creds.update',
      'messages.upsert',
      'messages.update',
      'message-receipt.update',
      'call',
    ] as const) {
      expect(current.ev.listenerCount(event), event).toBe(1);
    }
    fake.receive(id, phoneMessage({ phone: '5511933330002', content: textContent('oi') }));
    await expect
      .poll(
        async () =>
          (
            await t.database.db
              .select({ n: count() })
              .from(messages)
              .where(eq(messages.connectionId, id))
          )[0]!.n,
      )
      .toBe(1);
  });

  it('gives up after its bounded retries with TIMEOUT, and a retry later connects', async () => {
    const id = await connected('5511944440003');
    const sockets = fake.sockets(id).length;
    fake.setUnreachable(id, true);
    fake.drop(id);
    await waitFor(id, 'TIMEOUT');
    // One attempt per retry, then nothing more: no endless loop.
    expect(fake.sockets(id).length).toBe(sockets + MAX_RETRIES);
    const retries = sessions(id)
      .filter((s) => s.status === 'OPENING')
      .map((s) => (s as { retries?: number }).retries);
    expect(retries.slice(-MAX_RETRIES)).toEqual([1, 2, 3]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(fake.sockets(id).length).toBe(sockets + MAX_RETRIES);

    fake.setUnreachable(id, false);
    await start(id);
    await waitFor(id, 'CONNECTED');
  });

  it('stops at DISCONNECTED with an empty QR when nobody scans', async () => {
    const id = await newConnection();
    await start(id);
    await waitFor(id, 'qrcode');
    fake.expireQr(id);
    await waitFor(id, 'DISCONNECTED');
    expect((await row(id)).qrcode).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.sockets(id)).toHaveLength(1);
  });

  it('does not fight another client that replaced the session', async () => {
    const id = await connected('5511944440004');
    const sockets = fake.sockets(id).length;
    fake.drop(id, DisconnectReason.connectionReplaced);
    await waitFor(id, 'DISCONNECTED');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.sockets(id).length).toBe(sockets);
  });

  it('wipes every key and shows DISCONNECTED when the phone logs the device out', async () => {
    const id = await connected('5511944440005');
    expect((await keysOf(id)).length).toBeGreaterThan(1);
    fake.logoutFromPhone(id);
    await waitFor(id, 'DISCONNECTED');
    await expect.poll(() => keysOf(id)).toEqual([]);
    // Starting again asks for a new QR: a fresh login.
    await start(id);
    await waitFor(id, 'qrcode');
  });

  it('logs out from WhatsApp and wipes the keys on DELETE /whatsappsession', async () => {
    const id = await connected('5511944440006');
    const socket = fake.socket(id);
    expect((await t.as(token).delete(`/whatsappsession/${id}`)).statusCode).toBe(200);
    await expect.poll(() => keysOf(id)).toEqual([]);
    expect(socket.closed).toBe(true);
    expect(fake.wasRemoved('5511944440006:11@s.whatsapp.net')).toBe(true);
    expect(await statusOf(id)).toBe('DISCONNECTED');
  });

  it('pairs by code: PAIRING with the code to type on the phone, then CONNECTED', async () => {
    const id = await newConnection();
    const asked = await t
      .as(token)
      .post(`/whatsappsession/${id}/pairing-code`, { phoneNumber: '5511944440007' });
    expect(asked.statusCode, asked.body).toBe(200);
    await waitFor(id, 'PAIRING');
    const code = (await row(id)).qrcode;
    expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    // A QR refresh does not replace the code on screen.
    fake.nextQr(id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await row(id)).toMatchObject({ status: 'PAIRING', qrcode: code });
    fake.enterPairingCode(id, code);
    await waitFor(id, 'CONNECTED');
    expect(await row(id)).toMatchObject({ qrcode: '', number: '5511944440007' });
    // The number was used once: the next start logs in, no new code.
    expect(await keysOf(id)).not.toContain('baileys:pairing-number');
  });

  it('falls back to the QR when WhatsApp refuses to give a pairing code', async () => {
    const id = await newConnection();
    fake.refusePairingCodes = true;
    try {
      await t
        .as(token)
        .post(`/whatsappsession/${id}/pairing-code`, { phoneNumber: '5511944440009' });
      await waitFor(id, 'qrcode');
      expect((await row(id)).qrcode).toMatch(/^2@/);
    } finally {
      fake.refusePairingCodes = false;
    }
  });

  it('refuses a pairing code for another company, a non-WhatsApp-Web connection or a bad number', async () => {
    const id = await newConnection();
    const simulator = await newConnection('simulator');
    const body = { phoneNumber: '5511944440008' };
    expect(
      (await t.as(otherToken).post(`/whatsappsession/${id}/pairing-code`, body)).statusCode,
    ).toBe(404);
    expect(
      (await t.as(token).post(`/whatsappsession/${simulator}/pairing-code`, body)).statusCode,
    ).toBe(404);
    const bad = await t
      .as(token)
      .post(`/whatsappsession/${id}/pairing-code`, { phoneNumber: '+55 (11) 9' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    expect(await keysOf(id)).toEqual([]);
  });
});

describe('WhatsApp Web messages', () => {
  let id: number;
  const countAll = async () =>
    (
      await t.database.db.select({ n: count() }).from(messages).where(eq(messages.connectionId, id))
    )[0]!.n;
  const byProviderId = async (providerMessageId: string) =>
    (
      await t.database.db
        .select()
        .from(messages)
        .where(
          and(eq(messages.connectionId, id), eq(messages.providerMessageId, providerMessageId)),
        )
    )[0];
  const contactsNamed = (number: string) =>
    t.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  /** Delivers a message from the phone and waits until it is stored. */
  async function deliver(message: ReturnType<typeof phoneMessage>) {
    fake.receive(id, message);
    await expect.poll(() => byProviderId(message.key.id!), { timeout: 10_000 }).toBeDefined();
    return (await byProviderId(message.key.id!))!;
  }
  const setting = (key: string, value: string) => t.as(token).put(`/settings/${key}`, { value });

  beforeAll(async () => {
    id = await connected('5511922220000');
  });

  it("stores one chat's messages in the order they came, a slow download included", async () => {
    const phone = '5511977770080';
    const image = phoneMessage({
      phone,
      content: await fake.media('image', Buffer.alloc(200_000, 7), { mimetype: 'image/jpeg' }),
    });
    const after = [1, 2, 3].map((n) =>
      phoneMessage({ phone, content: textContent(`depois ${n}`) }),
    );
    fake.receive(id, image, after[0]!);
    fake.receive(id, after[1]!, after[2]!);
    const last = await deliver(after[2]!);
    const stored = await t.database.db
      .select({ providerMessageId: messages.providerMessageId })
      .from(messages)
      .where(eq(messages.ticketId, last.ticketId))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => m.providerMessageId)).toEqual([image, ...after].map((m) => m.key.id));
  });

  it('maps the phone number and the LID of one person to one contact', async () => {
    const phone = '5511977770001';
    const lid = fake.lidOf(phone);
    await deliver(
      phoneMessage({ phone, lid, addressing: 'lid', pushName: 'Ana', content: textContent('1') }),
    );
    expect(await contactsNamed(phone)).toMatchObject([{ lid: `${lid}@lid`, name: 'Ana' }]);
    // Later WhatsApp sends the LID alone: still Ana.
    const second = await deliver(phoneMessage({ lid, content: textContent('2') }));
    const [ana] = await contactsNamed(phone);
    expect(second.contactId).toBe(ana!.id);
    expect(await contactsNamed(`${lid}@lid`)).toEqual([]);

    // A LID the socket's store knows (WhatsApp shared the mapping) finds the number too.
    const other = '5511977770002';
    fake.shareLid(other);
    await deliver(phoneMessage({ lid: fake.lidOf(other), content: textContent('3') }));
    expect(await contactsNamed(other)).toHaveLength(1);
    // A LID nobody can map yet is a contact of its own, named by the LID.
    const unknown = fake.lidOf('5511977770003');
    await deliver(phoneMessage({ lid: unknown, content: textContent('4') }));
    expect(await contactsNamed(`${unknown}@lid`)).toHaveLength(1);
  });

  it('ignores group messages while CheckMsgIsGroup is enabled, and stores them when disabled', async () => {
    const group = '120363040000000001@g.us';
    fake.groups.set(group, 'Equipe de vendas');
    const ignored = phoneMessage({ phone: '5511977770010', group, content: textContent('g1') });
    fake.receive(id, ignored);
    await deliver(phoneMessage({ phone: '5511977770011', content: textContent('marker') }));
    expect(await byProviderId(ignored.key.id!)).toBeUndefined();

    expect((await setting('CheckMsgIsGroup', 'disabled')).statusCode).toBe(200);
    const stored = await deliver(
      phoneMessage({
        phone: '5511977770010',
        pushName: 'Bruno',
        group,
        content: textContent('no grupo'),
      }),
    );
    expect(stored.participant).toBe('5511977770010');
    const [ticket] = await t.database.db
      .select({ isGroup: tickets.isGroup, name: contacts.name, number: contacts.number })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(tickets.id, stored.ticketId));
    expect(ticket).toEqual({ isGroup: true, name: 'Equipe de vendas', number: group });
    expect(await contactsNamed('5511977770010')).toMatchObject([{ name: 'Bruno' }]);
    await setting('CheckMsgIsGroup', 'enabled');
  });

  it('sends read receipts naming the sender of each group message, and to LID-only chats', async () => {
    const group = '120363040000000002@g.us';
    fake.groups.set(group, 'Compras');
    expect((await setting('CheckMsgIsGroup', 'disabled')).statusCode).toBe(200);
    const first = await deliver(
      phoneMessage({ phone: '5511977770020', group, content: textContent('eu') }),
    );
    const second = await deliver(
      phoneMessage({ phone: '5511977770021', group, content: textContent('eu também') }),
    );
    await setting('CheckMsgIsGroup', 'enabled');
    const opened = await t.as(token).get(`/messages/${first.ticketId}`);
    expect(opened.statusCode).toBe(200);
    const keysOfChat = (jid: string) =>
      fake.reads.filter((read) => read.connectionId === id && read.key.remoteJid === jid);
    await expect
      .poll(() => keysOfChat(group).map((read) => read.key))
      .toEqual([
        {
          remoteJid: group,
          id: first.providerMessageId,
          fromMe: false,
          participant: '5511977770020@s.whatsapp.net',
        },
        {
          remoteJid: group,
          id: second.providerMessageId,
          fromMe: false,
          participant: '5511977770021@s.whatsapp.net',
        },
      ]);

    const lid = fake.lidOf('5511977770022');
    const hidden = await deliver(phoneMessage({ lid, content: textContent('só LID') }));
    await t.as(token).get(`/messages/${hidden.ticketId}`);
    await expect
      .poll(() => keysOfChat(`${lid}@lid`).map((read) => read.key))
      .toEqual([{ remoteJid: `${lid}@lid`, id: hidden.providerMessageId, fromMe: false }]);
  });

  it("stores a first-seen contact's profile picture; one without a picture is not asked again", async () => {
    const phone = '5511977770030';
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 9)]);
    fake.setProfilePicture(`${phone}@s.whatsapp.net`, jpeg);
    await deliver(phoneMessage({ phone, pushName: 'Vera', content: textContent('foto?') }));
    const pictureOf = async (number: string) => (await contactsNamed(number))[0]?.profilePicUrl;
    await expect.poll(() => pictureOf(phone), { timeout: 10_000 }).toMatch(/^\/media\/.+\.jpg\?/);
    const served = await t.app.inject({ method: 'GET', url: (await pictureOf(phone))! });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(jpeg)).toBe(true);
    expect(fake.pictureRequests).toContainEqual({ jid: `${phone}@s.whatsapp.net`, type: 'image' });

    const hidden = '5511977770031';
    const asked = () =>
      fake.pictureRequests.filter((request) => request.jid === `${hidden}@s.whatsapp.net`).length;
    await deliver(phoneMessage({ phone: hidden, content: textContent('sem foto') }));
    await expect.poll(asked).toBe(1);
    await deliver(phoneMessage({ phone: hidden, content: textContent('ainda sem foto') }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked()).toBe(1);
    expect(await pictureOf(hidden)).toBe('');
  });

  it("keeps the phone's address book for importing contacts; a logout takes it away", async () => {
    const book = await newConnection();
    await start(book);
    await waitFor(book, 'qrcode');
    fake.scan(book, '5511922229999');
    await waitFor(book, 'CONNECTED');
    const lid = fake.lidOf('5511944450003');
    fake.historySync(book, [
      { id: '5511944450001@s.whatsapp.net', name: 'Rosa (agenda)', notify: 'Rosinha' },
      { id: '120363040000000099@g.us', name: 'Um grupo' },
    ]);
    fake.syncContacts(
      book,
      { id: '5511944450002@s.whatsapp.net', notify: 'Davi' },
      { id: `${lid}@lid`, phoneNumber: '5511944450003@s.whatsapp.net', name: 'Lia' },
      { id: `${fake.lidOf('5511944450004')}@lid`, name: 'Sem número' },
      { id: 'status@broadcast', name: 'Status' },
    );
    // Only the name the person chose changes: the one saved on the phone stays first.
    fake.updateContacts(book, { id: '5511944450001@s.whatsapp.net', notify: 'Rosa M.' });
    fake.updateContacts(book, { id: '5511944450002@s.whatsapp.net', notify: 'Davi\u0000 Reis' });
    // Kept in the order WhatsApp told it: the last change stored means all of it is.
    const stored = async () =>
      (
        await t.database.db
          .select({ value: connectionAuthKeys.value })
          .from(connectionAuthKeys)
          .where(
            and(
              eq(connectionAuthKeys.connectionId, book),
              eq(connectionAuthKeys.key, 'baileys:book:5511944450002@s.whatsapp.net'),
            ),
          )
      )[0]?.value;
    await expect.poll(stored, { timeout: 10_000 }).toEqual({ notify: 'Davi Reis' });
    expect((await keysOf(book)).filter((key) => key.startsWith('baileys:book:'))).toHaveLength(4);
    const imports = () => t.as(token).post(`/contacts/import?whatsappId=${book}`);
    expect((await imports()).json()).toEqual({ imported: 3, skipped: 0 });
    const people = await t.database.db
      .select({ name: contacts.name, number: contacts.number, whatsappId: contacts.whatsappId })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.whatsappId, book)));
    expect(people.sort((a, b) => a.number.localeCompare(b.number))).toEqual([
      { name: 'Rosa (agenda)', number: '5511944450001', whatsappId: book },
      { name: 'Davi Reis', number: '5511944450002', whatsappId: book },
      { name: 'Lia', number: '5511944450003', whatsappId: book },
    ]);

    fake.logoutFromPhone(book);
    await waitFor(book, 'DISCONNECTED');
    expect((await keysOf(book)).filter((key) => key.startsWith('baileys:book:'))).toEqual([]);
    expect((await imports()).json()).toEqual({ imported: 0, skipped: 0 });
  });

  it("logs a missed call and tells the caller to write while 'call' is disabled; nothing when enabled", async () => {
    const caller = '5511977770020';
    const call = (callId: string) =>
      fake.call(id, {
        chatId: `${caller}@s.whatsapp.net`,
        from: `${caller}@s.whatsapp.net`,
        id: callId,
        date: new Date(),
        status: 'terminate',
        offline: false,
      });
    call('CALL0001');
    await expect.poll(() => byProviderId('CALL0001'), { timeout: 10_000 }).toBeDefined();
    const logged = (await byProviderId('CALL0001'))!;
    expect(logged).toMatchObject({ mediaType: 'call_log', fromMe: false });
    expect(logged.body).toMatch(/^Chamada de voz\/vídeo perdida às \d\d:\d\d$/);
    await expect
      .poll(() => fake.sentBy(id).filter((send) => send.jid === `${caller}@s.whatsapp.net`).length)
      .toBe(1);
    expect(fake.sentBy(id).at(-1)!.content).toEqual({ text: CALLS_DISABLED_REPLY });

    await setting('call', 'enabled');
    call('CALL0002');
    await deliver(phoneMessage({ phone: caller, content: textContent('marker') }));
    expect(await byProviderId('CALL0002')).toBeUndefined();
    expect(fake.sentBy(id).filter((send) => send.jid === `${caller}@s.whatsapp.net`)).toHaveLength(
      1,
    );
    await setting('call', 'disabled');
  });

  it('applies edits and deletions for everyone to the stored message', async () => {
    const original = phoneMessage({ phone: '5511977770030', content: textContent('errado') });
    await deliver(original);
    fake.update(id, editUpdate(original.key, 'certo'));
    await expect
      .poll(async () => (await byProviderId(original.key.id!))!.body, { timeout: 10_000 })
      .toBe('certo');
    expect((await byProviderId(original.key.id!))!.isEdited).toBe(true);
    fake.update(id, revokeUpdate(original.key));
    await expect
      .poll(async () => (await byProviderId(original.key.id!))!.isDeleted, { timeout: 10_000 })
      .toBe(true);
  });

  it('has an expired file uploaded again by the phone and stores it', async () => {
    const file = Buffer.from('%PDF-1.4 relatório');
    const content = await fake.media('document', file, {
      mimetype: 'application/pdf',
      fileName: 'relatorio.pdf',
    });
    fake.expire(content.documentMessage!.url!);
    const stored = await deliver(phoneMessage({ phone: '5511977770040', content }));
    expect(stored.mediaType).toBe('application');
    const { stream } = await t.app.platform.storage.open(stored.mediaPath!);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(file);
  });

  it("stores what the phone's owner typed on the phone, and skips its own sends echoed back", async () => {
    const before = await countAll();
    const typed = phoneMessage({
      phone: '5511977770050',
      fromMe: true,
      pushName: 'Loja',
      content: textContent('digitado no celular'),
    });
    const stored = await deliver(typed);
    expect(stored.fromMe).toBe(true);
    // The echo of an outbound message ('append') is not a new message.
    fake.socket(id).ev.emit('messages.upsert', {
      messages: [phoneMessage({ phone: '5511977770050', content: textContent('eco') })],
      type: 'append',
    });
    await deliver(phoneMessage({ phone: '5511977770050', content: textContent('marker') }));
    expect(await countAll()).toBe(before + 2);
    const [contact] = await contactsNamed('5511977770050');
    expect(contact!.name).not.toBe('Loja');
  });

  it('deletes a sent message for everyone', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const inbound = await deliver(
      phoneMessage({ phone: '5511977770060', content: textContent('oi') }),
    );
    const sent = await t.app.services.outbound.send(ctx, inbound.ticketId, { body: 'apagar' });
    const stored = (
      await t.database.db.select().from(messages).where(eq(messages.id, sent.id))
    )[0]!;
    await t.app.channels.deleteMessage(id, {
      chatId: '5511977770060',
      providerMessageId: stored.providerMessageId!,
      fromMe: true,
    });
    expect(fake.sentBy(id).at(-1)).toMatchObject({
      jid: '5511977770060@s.whatsapp.net',
      content: {
        delete: {
          remoteJid: '5511977770060@s.whatsapp.net',
          fromMe: true,
          id: stored.providerMessageId,
        },
      },
    });
  });

  it("marks a forwarded message with WhatsApp's forwarded flag", async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const inbound = await deliver(
      phoneMessage({ phone: '5511977770066', content: textContent('me encaminha') }),
    );
    await t.app.services.outbound.send(ctx, inbound.ticketId, {
      body: 'de outro',
      forwarded: true,
    });
    expect(fake.sentBy(id).at(-1)!.content).toMatchObject({
      text: 'de outro',
      contextInfo: { isForwarded: true },
    });
    await t.app.services.outbound.send(ctx, inbound.ticketId, { body: 'meu' });
    expect(fake.sentBy(id).at(-1)!.content).not.toHaveProperty('contextInfo');
  });

  it('sends an Ogg Opus audio as a voice note', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const inbound = await deliver(
      phoneMessage({ phone: '5511977770065', content: textContent('manda um áudio') }),
    );
    const ogg = Buffer.from('OggS voice note');
    const stored = await t.app.platform.storage.save(companyId, 'audio/ogg', Readable.from(ogg));
    await t.app.services.outbound.send(ctx, inbound.ticketId, {
      body: '',
      media: { key: stored.key, mimeType: 'audio/ogg', fileName: 'audio.ogg', kind: 'audio' },
    });
    const sent = fake.sentBy(id).at(-1)!;
    expect(sent.content).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    expect(sent.media).toEqual(ogg);
  });

  it('sends a failed message again under the same id once the session is back', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const inbound = await deliver(
      phoneMessage({ phone: '5511977770070', content: textContent('oi') }),
    );
    fake.setUnreachable(id, true);
    fake.drop(id);
    await expect.poll(() => statusOf(id)).not.toBe('CONNECTED');
    await expect(
      t.app.services.outbound.send(ctx, inbound.ticketId, { body: 'tentativa' }),
    ).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    const [failed] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.connectionId, id), eq(messages.body, 'tentativa')));
    expect(failed!.ack).toBe(0);
    fake.setUnreachable(id, false);
    await start(id);
    await waitFor(id, 'CONNECTED');
    // The session's flush on connecting may claim the reopened message before the retry does:
    // either way it goes out once, under its first id.
    await t.app.services.outbound.retry(ctx, failed!.id);
    await expect
      .poll(async () => {
        const [stored] = await t.database.db
          .select({ ack: messages.ack })
          .from(messages)
          .where(eq(messages.id, failed!.id));
        return stored!.ack;
      })
      .toBe(2);
    const sends = fake.sentBy(id).filter((send) => send.id === failed!.providerMessageId);
    expect(sends).toHaveLength(1);
    expect(sends[0]!.options?.messageId).toBe(failed!.providerMessageId);
  });
});

describe('the Baileys boundary', () => {
  it('is crossed by no file outside channels/baileys', () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(name) ? [path] : [];
      });
    })(src);
    const offenders = files
      .filter((file) => !relative(src, file).startsWith(join('channels', 'baileys')))
      .filter((file) =>
        /from\s+['"]@whiskeysockets\/baileys|import\(\s*['"]@whiskeysockets\/baileys/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });
});
