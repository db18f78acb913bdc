import { ACK } from '@atendi/shared';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { closeSockets, socketFor } from '../../../test/inbox';
import { connections, contacts, messages, simulatorMessages, tickets } from '../../db/schema';
import { systemContext } from '../../platform/auth/context';

let t: TestServer;
let token: string;
let companyId: number;
let connectionId: number;
let otherToken: string;

beforeAll(async () => {
  t = await startTestServer();
  const { company, admin } = await t.make.company();
  companyId = company.id;
  token = (await t.login(admin.email)).token;
  otherToken = (await t.login((await t.make.company()).admin.email)).token;
});
afterAll(() => t.stop());

const connectionRow = async () =>
  (await t.database.db.select().from(connections).where(eq(connections.id, connectionId)))[0]!;

const phoneSends = (phone: string, body: Record<string, unknown>) =>
  t.as(token).post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, body);

const countMessages = async (where = sql`true`) =>
  (await t.database.db.select({ n: count() }).from(messages).where(where))[0]!.n;

describe('simulator connection', () => {
  it('is created as the default connection, answers its token only to admins', async () => {
    const created = await t
      .as(token)
      .post('/whatsapp', { name: 'Simulador', provider: 'simulator' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Simulador',
      isDefault: true,
      status: 'DISCONNECTED',
    });
    expect(created.json().token).toMatch(/^[\w-]{40,}$/);
    connectionId = created.json().id;
    const emitted = t.emitted.filter((e) => e.event === `company-${companyId}-whatsapp`);
    expect(JSON.stringify(emitted)).not.toContain(created.json().token);
  });

  it('shows a QR after the session starts and connects when the phone scans it', async () => {
    expect((await t.as(token).post(`/whatsappsession/${connectionId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await connectionRow()).status).toBe('qrcode');
    const { qrcode } = await connectionRow();
    expect(qrcode).toMatch(/^SIMULATOR:/);
    expect(t.emitted).toContainEqual({
      event: `company-${companyId}-whatsappSession`,
      payload: {
        action: 'update',
        session: expect.objectContaining({ id: connectionId, status: 'qrcode', qrcode }),
      },
    });

    const wrong = await t
      .as(token)
      .post(`/simulator/connections/${connectionId}/scan`, { qrcode: 'SIMULATOR:x' });
    expect(wrong.statusCode).toBe(400);
    const foreign = await t
      .as(otherToken)
      .post(`/simulator/connections/${connectionId}/scan`, { qrcode });
    expect(foreign.statusCode).toBe(404);

    const scanned = await t
      .as(token)
      .post(`/simulator/connections/${connectionId}/scan`, { qrcode });
    expect(scanned.statusCode).toBe(204);
    await expect.poll(async () => (await connectionRow()).status).toBe('CONNECTED');
    expect((await connectionRow()).number).toMatch(/^5500\d{9}$/);
  });

  it('turns a phone message into a pending ticket with an unread count, announced to the company', async () => {
    const sent = await phoneSends('5511999990001', {
      name: 'Maria',
      body: 'Olá, preciso de ajuda',
    });
    expect(sent.statusCode).toBe(201);
    await expect.poll(() => countMessages()).toBe(1);
    const [ticket] = await t.database.db
      .select({
        status: tickets.status,
        unread: tickets.unreadMessages,
        last: tickets.lastMessage,
        name: contacts.name,
      })
      .from(tickets)
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .where(eq(contacts.number, '5511999990001'));
    expect(ticket).toEqual({
      status: 'pending',
      unread: 1,
      last: 'Olá, preciso de ajuda',
      name: 'Maria',
    });
    await expect
      .poll(() => t.emitted.filter((e) => e.event === `company-${companyId}-appMessage`).length)
      .toBe(1);
    const payload = t.emitted.find((e) => e.event === `company-${companyId}-appMessage`)!
      .payload as {
      message: { body: string; fromMe: boolean };
      ticket: { status: string; contact: { name: string } };
    };
    expect(payload.message).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false });
    expect(payload.ticket).toMatchObject({ status: 'pending', contact: { name: 'Maria' } });
  });

  it('stores a redelivered message once', async () => {
    await t.database.db
      .update(simulatorMessages)
      .set({ deliveredAt: null })
      .where(eq(simulatorMessages.connectionId, connectionId));
    await phoneSends('5511999990001', { body: 'segunda' });
    await expect.poll(() => countMessages()).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await countMessages()).toBe(2);
    const undelivered = await t.database.db
      .select({ n: count() })
      .from(simulatorMessages)
      .where(and(eq(simulatorMessages.connectionId, connectionId), sql`delivered_at is null`));
    expect(undelivered[0]!.n).toBe(0);
  });

  it('keeps one contact and one live ticket per phone under concurrent deliveries', async () => {
    const phones = Array.from({ length: 8 }, (_, i) => `55119888800${10 + i}`);
    await Promise.all(
      phones.flatMap((phone) =>
        Array.from({ length: 5 }, (_, n) =>
          phoneSends(phone, { name: `P${phone}`, body: `msg ${n}` }),
        ),
      ),
    );
    await expect.poll(() => countMessages(), { timeout: 10_000 }).toBe(42);
    for (const phone of phones) {
      const rows = await t.database.db
        .select({ id: tickets.id, unread: tickets.unreadMessages })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, phone));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.unread).toBe(5);
    }
    // Per-chat order: each phone's messages are stored in the order the network took them.
    const sentOrder = await t.database.db
      .select({ body: simulatorMessages.body })
      .from(simulatorMessages)
      .where(eq(simulatorMessages.phone, phones[0]!))
      .orderBy(simulatorMessages.id);
    const ordered = await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(eq(contacts.number, phones[0]!))
      .orderBy(messages.id);
    expect(ordered.map((row) => row.body)).toEqual(sentOrder.map((row) => row.body));
    expect(ordered).toHaveLength(5);
  });

  it('stores a media message under a generated name and serves it by signed address only', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const sent = await phoneSends('5511999990001', {
      kind: 'image',
      body: '',
      file: { name: '../../etc/passwd.png', mimeType: 'image/png', base64: png.toString('base64') },
    });
    expect(sent.statusCode).toBe(201);
    await expect.poll(() => countMessages(eq(messages.mediaType, 'image'))).toBe(1);
    const [image] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.mediaType, 'image'));
    expect(image!.mediaPath).toMatch(new RegExp(`^${companyId}/[0-9a-f-]{36}\\.png$`));
    expect(image!.mediaName).toBe('../../etc/passwd.png');

    const appMessage = t.emitted
      .filter((e) => e.event === `company-${companyId}-appMessage`)
      .map(
        (e) => (e.payload as { message: { mediaUrl: string | null; mediaType: string } }).message,
      )
      .find((m) => m.mediaType === 'image')!;
    const served = await t.app.inject({ method: 'GET', url: appMessage.mediaUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const forged = await t.app.inject({
      method: 'GET',
      url: appMessage.mediaUrl!.replace(/signature=.{4}/, 'signature=AAAA'),
    });
    expect(forged.statusCode).toBe(404);
  });

  it('sends from a stored row, and ticks move forward when the phone reads it', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const [ticket] = await t.database.db.select().from(tickets).limit(1);
    const sent = await t.app.services.outbound.send(ctx, ticket!.id, {
      body: 'Resposta da empresa',
    });
    expect(sent).toMatchObject({ fromMe: true, ack: 2, body: 'Resposta da empresa' });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, sent.id));
    const phone = String(
      (await t.database.db.select().from(contacts).where(eq(contacts.id, ticket!.contactId)))[0]!
        .number,
    );
    const conversation = await t
      .as(token)
      .get(`/simulator/connections/${connectionId}/phones/${phone}/messages`);
    const received = conversation
      .json()
      .filter((m: { direction: string }) => m.direction === 'outbound');
    expect(received).toEqual([
      expect.objectContaining({
        body: 'Resposta da empresa',
        providerMessageId: row!.providerMessageId,
      }),
    ]);

    const read = await t
      .as(token)
      .post(`/simulator/connections/${connectionId}/phones/${phone}/read`, { ack: 4 });
    expect(read.json().updated).toBe(1);
    await expect
      .poll(
        async () =>
          (
            await t.database.db
              .select({ ack: messages.ack })
              .from(messages)
              .where(eq(messages.id, sent.id))
          )[0]!.ack,
      )
      .toBe(4);
  });

  it('keeps a failed send visible and retries it without delivering twice', async () => {
    const ctx = systemContext(t.app.platform.db, companyId);
    const [ticket] = await t.database.db.select().from(tickets).limit(1);
    // The phone went away: the session runs but cannot send.
    expect(
      (await t.as(token).post(`/simulator/connections/${connectionId}/disconnect`)).statusCode,
    ).toBe(204);
    await expect.poll(async () => (await connectionRow()).status).toBe('DISCONNECTED');
    const failed = t.app.services.outbound.send(ctx, ticket!.id, { body: 'vai falhar' });
    await expect(failed).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    const [row] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.body, 'vai falhar'));
    expect(row!.ack).toBe(0);
    expect(
      t.emitted.some(
        (e) =>
          e.event === `company-${companyId}-appMessage` &&
          (e.payload as { message: { id: number; ack: number } }).message.id === row!.id &&
          (e.payload as { message: { ack: number } }).message.ack === 0,
      ),
    ).toBe(true);

    // Pair again: a new QR, scanned by the phone.
    await t.as(token).put(`/whatsappsession/${connectionId}`);
    await expect.poll(async () => (await connectionRow()).status).toBe('qrcode');
    await t.as(token).post(`/simulator/connections/${connectionId}/scan`, {
      qrcode: (await connectionRow()).qrcode,
    });
    await expect.poll(async () => (await connectionRow()).status).toBe('CONNECTED');

    // The answer is the message as the retry left it: sent, or still being sent when the
    // connection's own flush of waiting messages took it first; either way it goes out once.
    const retried = await t.app.services.outbound.retry(ctx, row!.id);
    expect([ACK.pending, ACK.sent]).toContain(retried.ack);
    await expect
      .poll(async () => {
        const [after] = await t.database.db.select().from(messages).where(eq(messages.id, row!.id));
        return after!.ack;
      })
      .toBe(ACK.sent);
    // Another attempt under the same id is recognised by the network.
    await t.database.db.update(messages).set({ ack: 0 }).where(eq(messages.id, row!.id));
    await t.app.services.outbound.retry(ctx, row!.id);
    const copies = await t.database.db
      .select({ n: count() })
      .from(simulatorMessages)
      .where(eq(simulatorMessages.providerMessageId, row!.providerMessageId!));
    expect(copies[0]!.n).toBe(1);
  });

  it("applies a phone's edits and deletions to the inbox, in the chat's order, and only its own messages", async () => {
    const phone = '5511999990077';
    const sent = await phoneSends(phone, { name: 'Bia', body: 'pedido 12' });
    const original = sent.json() as { id: number; providerMessageId: string };
    const stored = async () =>
      (
        await t.database.db
          .select()
          .from(messages)
          .where(eq(messages.providerMessageId, original.providerMessageId))
      )[0];
    await expect.poll(stored).toBeDefined();
    const path = `/simulator/connections/${connectionId}/phones/${phone}/messages/${original.id}`;

    // An edit and a later message: the inbox has the edit when the later one is stored.
    const edited = await t.as(token).put(path, { body: 'pedido 13' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ body: 'pedido 13', isEdited: true });
    const after = (await phoneSends(phone, { name: 'Bia', body: 'obrigada' })).json();
    await expect
      .poll(
        async () => await countMessages(eq(messages.providerMessageId, after.providerMessageId)),
      )
      .toBe(1);
    expect(await stored()).toMatchObject({ body: 'pedido 13', isEdited: true, isDeleted: false });
    const updates = t.emitted.filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        (e.payload as { action: string; message: { body: string } }).action === 'update' &&
        (e.payload as { message: { body: string } }).message.body === 'pedido 13',
    );
    expect(updates).toHaveLength(1);

    const deleted = await t.as(token).delete(path);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ isDeleted: true, body: '' });
    await expect.poll(async () => (await stored())!.isDeleted).toBe(true);

    // The change travels as a protocol message the phone never shows as one.
    const shown = (
      await t.as(token).get(`/simulator/connections/${connectionId}/phones/${phone}/messages`)
    ).json() as { kind: string }[];
    expect(shown.map((message) => message.kind)).toEqual(['text', 'text']);
    // Nothing stored twice, no message made of the edit.
    expect(await countMessages(eq(messages.body, 'pedido 13'))).toBe(1);

    // Gone already; another phone's message; another company's connection.
    expect((await t.as(token).put(path, { body: 'de novo' })).statusCode).toBe(404);
    expect(
      (
        await t
          .as(token)
          .delete(
            `/simulator/connections/${connectionId}/phones/5511999990001/messages/${after.id}`,
          )
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.as(otherToken).delete(path.replace(String(original.id), String(after.id))))
        .statusCode,
    ).toBe(404);
    expect((await t.as(token).put(path, { body: '' })).statusCode).toBe(400);
  });

  it("keeps a phone added on the page before it writes, in its company's connection only", async () => {
    const phones = `/simulator/connections/${connectionId}/phones`;
    const added = await t.as(token).post(phones, { phone: '5521977776666', name: ' Pedro ' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toEqual({ phone: '5521977776666', name: 'Pedro' });
    // what a reload of the page reads
    const listed = (await t.as(token).get(phones)).json() as { phone: string; name: string }[];
    expect(listed[0]).toEqual({ phone: '5521977776666', name: 'Pedro' });
    expect(listed.map((phone) => phone.phone)).toContain('5511999990001');

    expect(
      (await t.as(otherToken).post(phones, { phone: '5521900000000', name: 'X' })).statusCode,
    ).toBe(404);
    expect((await t.as(token).post(phones, { phone: '12ab', name: 'X' })).statusCode).toBe(400);
    expect((await t.as(token).post(phones, { phone: '5521977776666', name: ' ' })).statusCode).toBe(
      400,
    );

    // once it writes, it is listed once, among the phones that talked
    await phoneSends('5521977776666', { body: 'oi' });
    const after = (await t.as(token).get(phones)).json() as { phone: string; name: string }[];
    expect(after.filter((phone) => phone.phone === '5521977776666')).toEqual([
      { phone: '5521977776666', name: 'Pedro' },
    ]);
  });

  it("tells the company's sockets, and no other company's, what changes on a phone's conversation", async () => {
    const ours = await socketFor(t, token);
    const theirs = await socketFor(t, otherToken);
    // the simulator page joins; a socket elsewhere in the app does not, and hears none of it
    const elsewhere = await socketFor(t, token);
    const join = (socket: typeof ours) => socket.timeout(2000).emitWithAck('joinSimulator');
    expect(await join(ours)).toEqual({ ok: true });
    expect(await join(theirs)).toEqual({ ok: true });
    const idle: string[] = [];
    elsewhere.onAny((event: string) => idle.push(event));
    const heard: {
      phone: string;
      messages: { body: string; ack: number; isDeleted: boolean }[];
    }[] = [];
    ours.on(`company-${companyId}-simulator`, (payload) => heard.push(payload));
    const overheard: string[] = [];
    theirs.onAny((event: string) => overheard.push(event));

    const ctx = systemContext(t.app.platform.db, companyId);
    const [ticket] = await t.database.db.select().from(tickets).limit(1);
    const [contact] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, ticket!.contactId));
    const phone = contact!.number;
    const sent = await t.app.services.outbound.send(ctx, ticket!.id, { body: 'Chegou por evento' });
    const about = (body: string) =>
      heard
        .filter((event) => event.phone === phone)
        .flatMap((event) => event.messages)
        .filter((message) => message.body === body || (body === '' && message.isDeleted));
    await expect
      .poll(() => about('Chegou por evento'))
      .toEqual([expect.objectContaining({ ack: ACK.sent, isDeleted: false })]);
    expect(heard.at(-1)).toMatchObject({ action: 'update', connectionId, phone });

    // the phone reads it: the tick moves, heard by every page of the company
    await t
      .as(token)
      .post(`/simulator/connections/${connectionId}/phones/${phone}/read`, { ack: ACK.read });
    await expect
      .poll(() => about('Chegou por evento').map((message) => message.ack))
      .toContain(ACK.read);

    // the company deletes it for everyone
    expect((await t.as(token).delete(`/messages/${sent.id}`)).statusCode).toBe(200);
    await expect.poll(() => about('').length).toBeGreaterThan(0);

    expect(overheard.filter((event) => event.endsWith('-simulator'))).toEqual([]);
    expect(idle.filter((event) => event.endsWith('-simulator'))).toEqual([]);
    closeSockets();
  });

  it('disconnects and unpairs on DELETE /whatsappsession', async () => {
    expect((await t.as(token).delete(`/whatsappsession/${connectionId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await connectionRow()).status).toBe('DISCONNECTED');
    expect((await connectionRow()).sessionEnabled).toBe(false);
    await expect.poll(() => t.app.channels.isRunningHere(connectionId)).toBe(false);
  });
});
