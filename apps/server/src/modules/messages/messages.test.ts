import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEDIA_MAX_BYTES } from '@atendi/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  agent,
  emittedOf,
  type FormFile,
  inboxCompany,
  inboxFactories,
  PNG,
  pairedSimulator,
  phoneInbox,
  postForm,
  phoneWrites as writes,
} from '../../../test/inbox';
import type { SimulatorProvider } from '../../channels/simulator/simulator.provider';
import { contacts, messages, tickets } from '../../db/schema';
import { greetingAt, resolveVariables } from './messages.variables';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let queueA: { id: number };
let queueB: { id: number };
let agentA: Awaited<ReturnType<typeof agent>>;
let simulatorId: number;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  queueA = await t.make.queue(home.companyId);
  queueB = await t.make.queue(home.companyId);
  agentA = await agent(t, home.companyId, { name: 'Ana Lima', queueIds: [queueA.id] });
  simulatorId = await pairedSimulator(t, home.adminToken);
});
afterAll(() => t.stop());

const PHONE = '5511977770001';

/** A phone writes to the simulator connection; the inbound pipeline opens a pending ticket. */
async function ticketFromPhone(phone: string, name: string, queueId: number | null = queueA.id) {
  const sent = await t
    .as(home.adminToken)
    .post(`/simulator/connections/${simulatorId}/phones/${phone}/messages`, {
      name,
      body: 'Olá!',
    });
  expect(sent.statusCode).toBe(201);
  let row: typeof tickets.$inferSelect | undefined;
  await expect
    .poll(async () => {
      [row] = await t.database.db
        .select({ ticket: tickets })
        .from(tickets)
        .innerJoin(contacts, eq(contacts.id, tickets.contactId))
        .where(eq(contacts.number, phone))
        .then((rows) => rows.map((r) => r.ticket));
      return row;
    })
    .toBeDefined();
  // The contact's picture is stored after its first message: waited for, so the tests that
  // count the stored files count only their own.
  await expect
    .poll(
      async () =>
        (
          await t.database.db
            .select({ url: contacts.profilePicUrl })
            .from(contacts)
            .where(eq(contacts.id, row!.contactId))
        )[0]?.url,
    )
    .toMatch(/^\/media\//);
  await t.database.db
    .update(tickets)
    .set({ queueId, status: 'open', userId: agentA.user.id })
    .where(eq(tickets.id, row!.id));
  return row!;
}

/** A voice note recorded by Chromium (see platform/media/webm-to-ogg.test.ts). */
const VOICE_NOTE = readFileSync(
  fileURLToPath(new URL('../../../test/fixtures/voice-note.webm', import.meta.url)),
);

const storedNames = () => {
  const dir = join(t.app.platform.storage.root, String(home.companyId));
  return existsSync(dir) ? readdirSync(dir) : [];
};
const storedFiles = () => storedNames().length;

describe('GET /messages/:ticketId', () => {
  it('pages newest first, each page in the order written, and reads the ticket', async () => {
    const ticket = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueA.id,
      unreadMessages: 3,
    });
    for (let i = 1; i <= 25; i++) {
      await make.message(home.companyId, ticket.id, {
        body: `m${i}`,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
      });
    }
    t.emitted.length = 0;
    const first = await t.as(agentA.token).get(`/messages/${ticket.id}`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({
      count: 25,
      hasMore: true,
      ticket: { id: ticket.id, unreadMessages: 0 },
    });
    expect(page1.messages.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    const page2 = (await t.as(agentA.token).get(`/messages/${ticket.id}?pageNumber=2`)).json();
    expect(page2).toMatchObject({ hasMore: false });
    expect(page2.messages.map((m: { body: string }) => m.body)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
    ]);

    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.unreadMessages).toBe(0);
    // Reading is not activity: the ticket keeps its place.
    expect(row!.updatedAt.getTime()).toBe(ticket.updatedAt.getTime());
    expect(emittedOf(t, `company-${home.companyId}-ticket`)).toContainEqual({
      action: 'updateUnread',
      ticketId: ticket.id,
      ticket: expect.objectContaining({ unreadMessages: 0 }),
    });
  });

  it("is 403 for a ticket of another queue (an admin reads it), 404 for another company's", async () => {
    const ticket = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueB.id,
      unreadMessages: 2,
    });
    const denied = await t.as(agentA.token).get(`/messages/${ticket.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('ERR_NO_PERMISSION');
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.unreadMessages).toBe(2);
    expect((await t.as(home.adminToken).get(`/messages/${ticket.id}`)).statusCode).toBe(200);
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    expect((await t.as(home.adminToken).get(`/messages/${foreign.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/messages/${ticket.id}` })).statusCode).toBe(
      401,
    );
  });

  it("shows the contact's earlier tickets on the same connection above the ticket's own messages", async () => {
    const contact = await make.contact(home.companyId);
    const otherConnection = await make.connection(home.companyId, { isDefault: false });
    let minute = 0;
    const write = async (ticketId: number, label: string, count: number) => {
      for (let i = 1; i <= count; i++) {
        minute += 1;
        await make.message(home.companyId, ticketId, {
          body: `${label}${i}`,
          createdAt: new Date(Date.UTC(2025, 1, 1, 0, minute)),
        });
      }
    };
    const onHome = { contactId: contact.id, whatsappId: home.connection.id };
    // The first one in a queue the agent cannot see: the current ticket's rule decides.
    const first = await make.ticket(home.companyId, {
      ...onHome,
      status: 'closed',
      queueId: queueB.id,
    });
    await write(first.id, 'a', 6);
    const elsewhere = await make.ticket(home.companyId, {
      contactId: contact.id,
      whatsappId: otherConnection.id,
      status: 'closed',
    });
    await write(elsewhere.id, 'x', 2);
    const second = await make.ticket(home.companyId, { ...onHome, status: 'closed' });
    await write(second.id, 'b', 10);
    const someoneElse = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      status: 'closed',
    });
    await write(someoneElse.id, 'y', 2);
    const current = await make.ticket(home.companyId, {
      ...onHome,
      status: 'open',
      queueId: queueA.id,
      userId: agentA.user.id,
    });
    await write(current.id, 'c', 12);

    const bodies = (page: { messages: { body: string; ticketId: number }[] }) =>
      page.messages.map((m) => `${m.ticketId === current.id ? '' : m.ticketId}${m.body}`);
    const page1 = (await t.as(agentA.token).get(`/messages/${current.id}`)).json();
    expect(page1).toMatchObject({ count: 28, hasMore: true, ticket: { id: current.id } });
    expect(bodies(page1)).toEqual([
      ...['b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10'].map((b) => `${second.id}${b}`),
      ...Array.from({ length: 12 }, (_, i) => `c${i + 1}`),
    ]);
    const page2 = (await t.as(agentA.token).get(`/messages/${current.id}?pageNumber=2`)).json();
    expect(page2).toMatchObject({ count: 28, hasMore: false });
    expect(bodies(page2)).toEqual([
      ...Array.from({ length: 6 }, (_, i) => `${first.id}a${i + 1}`),
      `${second.id}b1`,
      `${second.id}b2`,
    ]);

    // An earlier ticket opened by itself shows its own past, never what came after it.
    const past = (await t.as(home.adminToken).get(`/messages/${second.id}`)).json();
    expect(past.count).toBe(16);
    expect(new Set(past.messages.map((m: { ticketId: number }) => m.ticketId))).toEqual(
      new Set([first.id, second.id]),
    );
    // The earlier ticket itself stays out of the agent's reach.
    expect((await t.as(agentA.token).get(`/messages/${first.id}`)).statusCode).toBe(403);
  });
});

describe('read receipts', () => {
  /** The phone's own messages as the simulator shows them, with the company's read mark. */
  const phoneSide = async (phone: string, connectionId = simulatorId) =>
    (
      await t
        .as(home.adminToken)
        .get(`/simulator/connections/${connectionId}/phones/${phone}/messages`)
    )
      .json()
      .filter((m: { direction: string }) => m.direction === 'inbound')
      .map((m: { body: string; ack: number }) => [m.body, m.ack]);

  const phoneWrites = (phone: string, body: string) =>
    writes(t, home.adminToken, simulatorId, phone, body);

  it('opening a ticket tells the phone its messages were read, once', async () => {
    const phone = '5511977770101';
    const ticket = await ticketFromPhone(phone, 'Rita');
    await phoneWrites(phone, 'tem alguém?');
    expect(await phoneSide(phone)).toEqual([
      ['Olá!', 1],
      ['tem alguém?', 1],
    ]);
    const opened = await t.as(agentA.token).get(`/messages/${ticket.id}`);
    expect(opened.statusCode).toBe(200);
    await expect
      .poll(() => phoneSide(phone))
      .toEqual([
        ['Olá!', 4],
        ['tem alguém?', 4],
      ]);
    // A later message stays unread on the phone until the ticket is opened again.
    await phoneWrites(phone, 'obrigada');
    await expect.poll(() => phoneSide(phone)).toContainEqual(['obrigada', 1]);
    await t.as(agentA.token).get(`/messages/${ticket.id}`);
    await expect.poll(() => phoneSide(phone)).toContainEqual(['obrigada', 4]);
  });

  it('never fails the opening: no running connection, or a network that refuses', async () => {
    const idle = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueA.id,
      unreadMessages: 1,
    });
    await make.message(home.companyId, idle.id, {
      connectionId: home.connection.id,
      providerMessageId: 'IDLE1',
    });
    const res = await t.as(agentA.token).get(`/messages/${idle.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.unreadMessages).toBe(0);

    const phone = '5511977770102';
    const ticket = await ticketFromPhone(phone, 'Caio');
    const network = t.app.channels.provider<SimulatorProvider>('simulator')!.network;
    const refusing = vi
      .spyOn(network, 'readByCompany')
      .mockRejectedValue(new Error('network unreachable'));
    try {
      const opened = await t.as(agentA.token).get(`/messages/${ticket.id}`);
      expect(opened.statusCode).toBe(200);
      expect(opened.json().ticket.unreadMessages).toBe(0);
      await expect.poll(() => refusing.mock.calls.length).toBe(1);
    } finally {
      refusing.mockRestore();
    }
    expect(await phoneSide(phone)).toEqual([['Olá!', 1]]);
  });

  it('are sent by the instance that owns the connection when another one served the agent', async () => {
    const second = await startTestServer({}, t);
    try {
      expect(t.app.channels.isRunningHere(simulatorId)).toBe(true);
      expect(second.app.channels.isRunningHere(simulatorId)).toBe(false);
      const phone = '5511977770103';
      const ticket = await ticketFromPhone(phone, 'Lia');
      const opened = await second.as(agentA.token).get(`/messages/${ticket.id}`);
      expect(opened.statusCode).toBe(200);
      await expect.poll(() => phoneSide(phone)).toEqual([['Olá!', 4]]);
    } finally {
      await second.stop();
    }
  });
});

describe('POST /messages/:ticketId', () => {
  it('sends through the paired connection: the phone receives it, signed by the agent', async () => {
    const ticket = await ticketFromPhone(PHONE, 'Carla Dias');
    const res = await t
      .as(agentA.token)
      .post(`/messages/${ticket.id}`, { body: 'Como posso ajudar?', signMessage: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      body: '*Ana Lima*:\nComo posso ajudar?',
      fromMe: true,
      ack: 2,
    });
    const received = await phoneInbox(t, home.adminToken, simulatorId, PHONE);
    expect(received.map((m) => m.body)).toContain('*Ana Lima*:\nComo posso ajudar?');
    expect(emittedOf(t, `company-${home.companyId}-appMessage`)).toContainEqual(
      expect.objectContaining({
        action: 'update',
        message: expect.objectContaining({ id: res.json().id, ack: 2 }),
      }),
    );
  });

  it('sends the body as it came when signMessage is left out: the spec client signs it itself', async () => {
    const ticket = await ticketFromPhone('5511977770009', 'Assinada Uma Vez');
    const res = await t
      .as(agentA.token)
      .post(`/messages/${ticket.id}`, { body: '*Ana Lima:*\nJá assinada', fromMe: true, read: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json().body).toBe('*Ana Lima:*\nJá assinada');
    const form = await postForm(t, agentA.token, `/messages/${ticket.id}`, { body: 'Com foto' }, [
      { field: 'medias', name: 'foto.png', type: 'image/png', content: PNG },
    ]);
    expect(form.statusCode).toBe(201);
    expect(form.json()[0].body).toBe('Com foto');
  });

  it('resolves the message variables and can go unsigned', async () => {
    const ticket = await ticketFromPhone('5511977770002', 'Paulo Andrade Neto');
    const res = await t.as(agentA.token).post(`/messages/${ticket.id}`, {
      body: '{{greeting}} {{contactFirstName}} ({{contactName}}), protocolo {{protocolNumber}} em {{date}} às {{hour}} {{unknown}}',
      signMessage: false,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().body).toMatch(
      new RegExp(
        `^(Bom dia|Boa tarde|Boa noite) Paulo \\(Paulo Andrade Neto\\), protocolo \\d{8}${ticket.id} em \\d{2}/\\d{2}/\\d{4} às \\d{2}:\\d{2} \\{\\{unknown\\}\\}$`,
      ),
    );
  });

  it('quotes a message of the same ticket', async () => {
    const ticket = await ticketFromPhone('5511977770003', 'Quem Cita');
    const [inbound] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    const res = await t
      .as(agentA.token)
      .post(`/messages/${ticket.id}`, { body: 'Respondendo', quotedMsg: { id: inbound!.id } });
    expect(res.json()).toMatchObject({ quotedMsgId: inbound!.id, quotedMsg: { body: 'Olá!' } });
  });

  it('refuses an empty text without files, and wrong types', async () => {
    const ticket = await ticketFromPhone('5511977770004', 'Vazio');
    for (const body of [
      { body: '   \n ' },
      // A field the spec's client does not send is ignored: this one is still an empty text.
      { html: '<b>' },
      {},
      { body: 'x', quotedMsg: { id: 'abc' } },
      { body: 5 },
    ]) {
      const res = await t.as(agentA.token).post(`/messages/${ticket.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });

  it("cannot write to a ticket of another queue or another company's", async () => {
    const hidden = await make.ticket(home.companyId, {
      whatsappId: simulatorId,
      queueId: queueB.id,
    });
    const denied = await t.as(agentA.token).post(`/messages/${hidden.id}`, { body: 'oi' });
    expect(denied.statusCode).toBe(403);
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    expect(
      (await t.as(home.adminToken).post(`/messages/${foreign.id}`, { body: 'oi' })).statusCode,
    ).toBe(404);
    const written = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, hidden.id));
    expect(written).toEqual([]);
  });

  it("previews the agent's own files on the ticket with the contact's labels, not file names", async () => {
    const ticket = await ticketFromPhone('5511977770015', 'Prévia');
    const lastMessage = async () =>
      (
        await t.database.db
          .select({ lastMessage: tickets.lastMessage })
          .from(tickets)
          .where(eq(tickets.id, ticket.id))
      )[0]!.lastMessage;
    const files: [FormFile, string][] = [
      [
        { field: 'medias', name: 'gravacao.webm', type: 'audio/webm', content: VOICE_NOTE },
        '🎤 Áudio',
      ],
      [{ field: 'medias', name: 'foto.png', type: 'image/png', content: PNG }, '📷 Imagem'],
      [
        {
          field: 'medias',
          name: 'nota.pdf',
          type: 'application/pdf',
          content: Buffer.from('%PDF-1.4 x'),
        },
        '📄 Documento',
      ],
    ];
    for (const [file, label] of files) {
      const res = await postForm(t, agentA.token, `/messages/${ticket.id}`, {}, [file]);
      expect(res.statusCode, res.body).toBe(201);
      expect(await lastMessage(), file.name).toBe(label);
    }
    // A caption is words to read: it stays the preview.
    await postForm(
      t,
      agentA.token,
      `/messages/${ticket.id}`,
      { body: 'Veja', signMessage: 'false' },
      [files[1]![0]],
    );
    expect(await lastMessage()).toBe('Veja');
  });

  it('sends files as a form: stored under generated names, received by the phone', async () => {
    const ticket = await ticketFromPhone('5511977770005', 'Com Arquivo');
    const res = await postForm(
      t,
      agentA.token,
      `/messages/${ticket.id}`,
      { body: 'Segue o comprovante', signMessage: 'false' },
      [
        { field: 'medias', name: '../../comprovante.png', type: 'image/png', content: PNG },
        {
          field: 'medias',
          name: 'nota.pdf',
          type: 'application/pdf',
          content: Buffer.from('%PDF-1.4 x'),
        },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    const [image, pdf] = res.json();
    expect(image).toMatchObject({
      body: 'Segue o comprovante',
      mediaType: 'image',
      // The sender's name, without its path, as metadata only.
      mediaName: 'comprovante.png',
      mediaUrl: expect.stringMatching(
        new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.png\\?`),
      ),
    });
    expect(pdf).toMatchObject({ body: '', mediaType: 'application', mediaName: 'nota.pdf' });
    const served = await t.app.inject({ method: 'GET', url: image.mediaUrl });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977770005');
    expect(received.map((m) => m.kind)).toEqual(['image', 'document']);
  });

  it('stores a recorded WebM voice note as Ogg Opus, sent to the phone as audio', async () => {
    const ticket = await ticketFromPhone('5511977770010', 'Com Áudio');
    const webmFiles = () => storedNames().filter((name) => name.endsWith('.webm')).length;
    const before = webmFiles();
    const res = await postForm(t, agentA.token, `/messages/${ticket.id}`, { body: '' }, [
      {
        field: 'medias',
        name: 'audio-1732300000000.webm',
        type: 'audio/webm',
        content: VOICE_NOTE,
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [audio] = res.json();
    expect(audio).toMatchObject({
      mediaType: 'audio',
      mediaName: 'audio-1732300000000.ogg',
      mediaUrl: expect.stringMatching(
        new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.ogg\\?`),
      ),
    });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, audio.id));
    expect(row!.mediaMime).toBe('audio/ogg');
    const served = await t.app.inject({ method: 'GET', url: audio.mediaUrl });
    expect(served.headers['content-type']).toMatch(/^audio\/ogg/);
    expect(served.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(served.rawPayload.includes(Buffer.from('OpusHead'))).toBe(true);
    // The WebM is not kept beside it.
    expect(webmFiles()).toBe(before);
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977770010');
    expect(received.map((m) => m.kind)).toEqual(['audio']);
  });

  it('keeps a WebM it cannot rewrite as it came', async () => {
    const ticket = await ticketFromPhone('5511977770011', 'Áudio Cortado');
    const cut = VOICE_NOTE.subarray(0, VOICE_NOTE.length - 5);
    const res = await postForm(t, agentA.token, `/messages/${ticket.id}`, { body: '' }, [
      { field: 'medias', name: 'gravacao.webm', type: 'audio/webm', content: cut },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [audio] = res.json();
    expect(audio).toMatchObject({ mediaType: 'audio', mediaName: 'gravacao.webm' });
    expect(audio.mediaUrl).toMatch(/\.webm\?/);
    const served = await t.app.inject({ method: 'GET', url: audio.mediaUrl });
    expect(served.rawPayload.equals(cut)).toBe(true);
  });

  it('refuses active or mislabelled files and oversized forms, keeping no file', async () => {
    const ticket = await ticketFromPhone('5511977770006', 'Arquivo Ruim');
    const before = storedFiles();
    const cases: [Parameters<typeof postForm>[4], number][] = [
      [
        [{ field: 'medias', name: 'x.svg', type: 'image/svg+xml', content: Buffer.from('<svg/>') }],
        415,
      ],
      [
        [{ field: 'medias', name: 'x.html', type: 'text/html', content: Buffer.from('<script>') }],
        415,
      ],
      [
        [{ field: 'medias', name: 'x.png', type: 'image/png', content: Buffer.from('<html>') }],
        415,
      ],
      [[{ field: 'other', name: 'x.png', type: 'image/png', content: PNG }], 400],
      [
        [
          { field: 'medias', name: 'ok.png', type: 'image/png', content: PNG },
          {
            field: 'medias',
            name: 'big.pdf',
            type: 'application/pdf',
            content: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(MEDIA_MAX_BYTES)]),
          },
        ],
        413,
      ],
      [
        Array.from({ length: 11 }, (_, i) => ({
          field: 'medias',
          name: `${i}.png`,
          type: 'image/png',
          content: PNG,
        })),
        413,
      ],
    ];
    for (const [files, status] of cases) {
      const res = await postForm(t, agentA.token, `/messages/${ticket.id}`, { body: 'x' }, files);
      expect(res.statusCode, files![0]!.name).toBe(status);
    }
    const bad = await postForm(
      t,
      agentA.token,
      `/messages/${ticket.id}`,
      { body: 'x', quotedMsgId: 'abc' },
      [{ field: 'medias', name: 'ok.png', type: 'image/png', content: PNG }],
    );
    expect(bad.statusCode).toBe(400);
    expect(storedFiles()).toBe(before);
    const written = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, ticket.id));
    expect(written).toHaveLength(1);
  });
});

describe('DELETE /messages/:id', () => {
  it('deletes a sent message for everyone and keeps the row marked deleted', async () => {
    const ticket = await ticketFromPhone('5511977770007', 'Apaga');
    const sent = (
      await t.as(agentA.token).post(`/messages/${ticket.id}`, { body: 'engano', signMessage: true })
    ).json();
    const res = await t.as(agentA.token).delete(`/messages/${sent.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sent.id, isDeleted: true, body: '' });
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, sent.id));
    expect(row).toMatchObject({ isDeleted: true, body: '*Ana Lima*:\nengano' });
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977770007');
    expect(received.find((m) => m.providerMessageId === row!.providerMessageId)!.isDeleted).toBe(
      true,
    );
  });

  it("is ERR_DELETE_WAPP_MSG for the contact's messages and when the connection is down", async () => {
    const ticket = await ticketFromPhone('5511977770008', 'Nao Apaga');
    const [inbound] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false)));
    const res = await t.as(agentA.token).delete(`/messages/${inbound!.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_DELETE_WAPP_MSG');

    const offline = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueA.id,
    });
    const mine = await make.message(home.companyId, offline.id, {
      fromMe: true,
      ack: 2,
      connectionId: home.connection.id,
      providerMessageId: 'ABC123',
    });
    const down = await t.as(agentA.token).delete(`/messages/${mine.id}`);
    expect(down.statusCode).toBe(400);
    expect(down.json().error).toBe('ERR_DELETE_WAPP_MSG');
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, mine.id));
    expect(row!.isDeleted).toBe(false);
  });

  it("is 403 outside the caller's queues and 404 for another company's message", async () => {
    const hidden = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueB.id,
    });
    const message = await make.message(home.companyId, hidden.id, { fromMe: true, ack: 0 });
    expect((await t.as(agentA.token).delete(`/messages/${message.id}`)).statusCode).toBe(403);
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const theirs = await make.message(other.companyId, foreign.id, { fromMe: true, ack: 0 });
    expect((await t.as(home.adminToken).delete(`/messages/${theirs.id}`)).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, theirs.id));
    expect(row!.isDeleted).toBe(false);
  });
});

describe('POST /messages/:id/retry', () => {
  it('sends a failed message again under its first id; 403 outside the queues, 404 for another company', async () => {
    const ticket = await ticketFromPhone('5511977770009', 'Reenvio');
    const sent = (
      await t.as(agentA.token).post(`/messages/${ticket.id}`, { body: 'de novo' })
    ).json();
    await t.database.db.update(messages).set({ ack: 0 }).where(eq(messages.id, sent.id));
    const retried = await t.as(agentA.token).post(`/messages/${sent.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: sent.id, ack: 2 });
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977770009');
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, sent.id));
    expect(received.filter((m) => m.providerMessageId === row!.providerMessageId)).toHaveLength(1);
    // Only failed messages are sent again.
    expect((await t.as(agentA.token).post(`/messages/${sent.id}/retry`)).statusCode).toBe(409);

    const hidden = await make.ticket(home.companyId, {
      whatsappId: home.connection.id,
      queueId: queueB.id,
    });
    const failed = await make.message(home.companyId, hidden.id, { fromMe: true, ack: 0 });
    expect((await t.as(agentA.token).post(`/messages/${failed.id}/retry`)).statusCode).toBe(403);
    const foreign = await make.ticket(other.companyId, { whatsappId: other.connection.id });
    const theirs = await make.message(other.companyId, foreign.id, { fromMe: true, ack: 0 });
    expect((await t.as(home.adminToken).post(`/messages/${theirs.id}/retry`)).statusCode).toBe(404);
  });
});

/** A phone writes; its ticket is put in `queueId`, open in agent A's hands. */
async function conversationFrom(phone: string, bodies: string[], queueId = queueA.id) {
  for (const body of bodies) await writes(t, home.adminToken, simulatorId, phone, body, phone);
  const [row] = await t.database.db
    .select({ ticket: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(eq(contacts.number, phone));
  await t.database.db
    .update(tickets)
    .set({ queueId, status: 'open', userId: queueId === queueA.id ? agentA.user.id : null })
    .where(eq(tickets.id, row!.ticket.id));
  const rows = await t.database.db
    .select({ id: messages.id, body: messages.body })
    .from(messages)
    .where(eq(messages.ticketId, row!.ticket.id));
  return { ticket: row!.ticket, ids: bodies.map((body) => rows.find((m) => m.body === body)!.id) };
}

const forward = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/message/forward', body);

describe('POST /message/forward', () => {
  it("copies several messages, in the order written, into a contact's new ticket in the agent's hands", async () => {
    const source = await conversationFrom('5511977771001', ['primeira', 'segunda', 'terceira']);
    const target = await make.contact(home.companyId, { number: '5511977771002', name: 'Bruno' });
    // Asked in another order: the copies keep the conversation's.
    const res = await forward(agentA.token, {
      messageIds: [source.ids[2], source.ids[0]],
      contactId: target.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { ticket, messages: sent } = res.json();
    expect(ticket).toMatchObject({
      contactId: target.id,
      status: 'open',
      userId: agentA.user.id,
      whatsappId: simulatorId,
    });
    expect(sent.map((m: { body: string }) => m.body)).toEqual(['primeira', 'terceira']);
    for (const message of sent) {
      expect(message).toMatchObject({ ticketId: ticket.id, fromMe: true, isForwarded: true });
    }
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977771002');
    expect(received.map((m) => m.body)).toEqual(['primeira', 'terceira']);
    // The originals are unchanged.
    const [first] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, source.ids[0]!));
    expect(first).toMatchObject({ ticketId: source.ticket.id, isForwarded: false, fromMe: false });
  });

  it("copies into an open ticket, and takes the original client's one-message body unsigned", async () => {
    const source = await conversationFrom('5511977771011', ['encaminhe isto']);
    const target = await conversationFrom('5511977771012', ['oi']);
    const intoTicket = await forward(agentA.token, {
      messageIds: source.ids,
      ticketId: target.ticket.id,
    });
    expect(intoTicket.statusCode, intoTicket.body).toBe(200);
    expect(intoTicket.json().ticket.id).toBe(target.ticket.id);

    const original = await forward(agentA.token, {
      messageId: source.ids[0],
      contactId: target.ticket.contactId,
      signMessage: true,
    });
    expect(original.statusCode, original.body).toBe(200);
    // The contact's live ticket is the one already open: no second ticket.
    expect(original.json().ticket.id).toBe(target.ticket.id);
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977771012');
    expect(received.map((m) => m.body)).toEqual(['encaminhe isto', 'encaminhe isto']);
  });

  it("sends a file again from the server's copy, with its caption", async () => {
    const source = await conversationFrom('5511977771021', ['manda a foto']);
    const uploaded = await postForm(
      t,
      agentA.token,
      `/messages/${source.ticket.id}`,
      { body: 'o comprovante' },
      [{ field: 'medias', name: 'comprovante.png', type: 'image/png', content: PNG }],
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const image = uploaded.json()[0];
    const target = await conversationFrom('5511977771022', ['quero a foto']);

    const res = await forward(agentA.token, {
      messageIds: [source.ids[0], image.id],
      ticketId: target.ticket.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [text, copy] = res.json().messages;
    expect(text).toMatchObject({ body: 'manda a foto', mediaType: 'chat' });
    expect(copy).toMatchObject({
      body: 'o comprovante',
      mediaType: 'image',
      mediaName: 'comprovante.png',
      isForwarded: true,
    });
    const keyOf = (url: string) => url.split('?')[0];
    expect(keyOf(copy.mediaUrl)).not.toBe(keyOf(image.mediaUrl));
    const served = await t.app.inject({ method: 'GET', url: copy.mediaUrl });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const received = await phoneInbox(t, home.adminToken, simulatorId, '5511977771022');
    expect(received.map((m) => m.kind)).toEqual(['text', 'image']);

    // The source ticket deleted with its file: the copy stays whole.
    const removed = await t.as(home.adminToken).delete(`/tickets/${source.ticket.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: image.mediaUrl })).statusCode).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: copy.mediaUrl });
    expect(still.rawPayload.equals(PNG)).toBe(true);
  });

  it("is 404 for another company's message, ticket or contact, and changes nothing", async () => {
    const mine = await conversationFrom('5511977771031', ['meu']);
    const theirTicket = await make.ticket(other.companyId, {
      whatsappId: other.connection.id,
      status: 'open',
    });
    const theirs = await make.message(other.companyId, theirTicket.id, { body: 'deles' });
    const before = (await t.database.db.select({ id: messages.id }).from(messages)).length;

    const theirMessage = await forward(agentA.token, {
      messageIds: [mine.ids[0], theirs.id],
      ticketId: mine.ticket.id,
    });
    expect(theirMessage.statusCode).toBe(404);
    const intoTheirTicket = await forward(home.adminToken, {
      messageIds: mine.ids,
      ticketId: theirTicket.id,
    });
    expect(intoTheirTicket.statusCode).toBe(404);
    expect(intoTheirTicket.json().error).toBe('ERR_NO_TICKET_FOUND');
    const toTheirContact = await forward(home.adminToken, {
      messageIds: mine.ids,
      contactId: theirTicket.contactId,
    });
    expect(toTheirContact.statusCode).toBe(404);
    expect(toTheirContact.json().error).toBe('ERR_NO_CONTACT_FOUND');
    // Their admin cannot forward ours either.
    const fromOurs = await forward(other.adminToken, {
      messageIds: mine.ids,
      ticketId: theirTicket.id,
    });
    expect(fromOurs.statusCode).toBe(404);
    expect((await t.database.db.select({ id: messages.id }).from(messages)).length).toBe(before);
  });

  it("is 403 for an agent outside the source's or the target's queue; refuses a closed ticket and nothing to send", async () => {
    const mine = await conversationFrom('5511977771041', ['posso']);
    const elsewhere = await conversationFrom('5511977771042', ['não pode'], queueB.id);
    const before = (await t.database.db.select({ id: messages.id }).from(messages)).length;

    const fromElsewhere = await forward(agentA.token, {
      messageIds: elsewhere.ids,
      ticketId: mine.ticket.id,
    });
    expect(fromElsewhere.statusCode).toBe(403);
    expect(fromElsewhere.json().error).toBe('ERR_NO_PERMISSION');
    const intoElsewhere = await forward(agentA.token, {
      messageIds: mine.ids,
      ticketId: elsewhere.ticket.id,
    });
    expect(intoElsewhere.statusCode).toBe(403);
    // The contact's live ticket is another queue's conversation: not the agent's to write to.
    const toElsewhereContact = await forward(agentA.token, {
      messageIds: mine.ids,
      contactId: elsewhere.ticket.contactId,
    });
    expect(toElsewhereContact.statusCode).toBe(403);

    const closed = await make.ticket(home.companyId, {
      whatsappId: simulatorId,
      queueId: queueA.id,
      userId: agentA.user.id,
      status: 'closed',
    });
    const intoClosed = await forward(agentA.token, { messageIds: mine.ids, ticketId: closed.id });
    expect(intoClosed.statusCode).toBe(400);
    const noTarget = await forward(agentA.token, { messageIds: mine.ids });
    expect(noTarget.statusCode).toBe(400);
    const noMessages = await forward(agentA.token, { messageIds: [], ticketId: mine.ticket.id });
    expect(noMessages.statusCode).toBe(400);
    expect((await t.database.db.select({ id: messages.id }).from(messages)).length).toBe(before);
    // An admin reads every queue.
    const admin = await forward(home.adminToken, {
      messageIds: elsewhere.ids,
      ticketId: mine.ticket.id,
    });
    expect(admin.statusCode, admin.body).toBe(200);
  });
});

describe('message variables', () => {
  it('greets by the hour in São Paulo', () => {
    // São Paulo is UTC-3.
    expect(greetingAt(new Date('2025-05-01T11:00:00Z'))).toBe('Bom dia');
    expect(greetingAt(new Date('2025-05-01T16:00:00Z'))).toBe('Boa tarde');
    expect(greetingAt(new Date('2025-05-01T23:30:00Z'))).toBe('Boa noite');
    expect(greetingAt(new Date('2025-05-01T05:00:00Z'))).toBe('Boa noite');
  });

  it('fills every variable once, leaving unknown ones', () => {
    const text = resolveVariables(
      '{{contactFirstName}}|{{contactName}}|{{protocolNumber}}|{{date}}|{{hour}}|{{ nope }}',
      {
        contactName: 'Ana {{date}} Souza',
        ticketId: 42,
        ticketCreatedAt: new Date('2025-01-02T01:00:00Z'),
      },
      new Date('2025-05-01T12:34:00Z'),
    );
    expect(text).toBe('Ana|Ana {{date}} Souza|2025010142|01/05/2025|09:34|{{ nope }}');
  });
});
