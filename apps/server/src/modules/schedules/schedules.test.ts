import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  agent,
  closeSockets,
  inboxFactories,
  PNG,
  pairedSimulator,
  phoneInbox,
  postForm,
  socketFor,
} from '../../../test/inbox';
import { connections, messages, schedules, tickets } from '../../db/schema';
import { SCHEDULE_SWEEP_JOB, ScheduleSendError } from './schedules.service';

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

/** A company whose plan has schedules, with its admin signed in. */
async function scheduling(options: { connection?: boolean } = {}) {
  const plan = await t.make.plan({ useSchedules: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const connection = options.connection === false ? undefined : await make.connection(company.id);
  const adminToken = (await t.login(admin.email)).token;
  const contact = await make.contact(company.id, { name: 'Maria Souza' });
  return { companyId: company.id, admin, adminToken, connection, contact };
}

let home: Awaited<ReturnType<typeof scheduling>>;
let other: Awaited<ReturnType<typeof scheduling>>;

beforeAll(async () => {
  t = await startTestServer();
  make = inboxFactories(t);
  home = await scheduling();
  other = await scheduling();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

const IN_A_YEAR = () => new Date(Date.now() + 365 * 86_400_000).toISOString();
const create = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/schedules', body);
const row = async (id: number) =>
  (await t.database.db.select().from(schedules).where(eq(schedules.id, id)))[0];

describe('POST /schedules', () => {
  it("creates the caller's schedule for a contact, answered with the contact", async () => {
    const sendAt = IN_A_YEAR();
    const res = await create(home.adminToken, {
      body: 'Olá, {{contactName}}! Sua consulta é amanhã.',
      contactId: home.contact.id,
      sendAt,
      // The original client sends these too; they decide nothing.
      userId: 999_999,
      sentAt: '',
      companyId: other.companyId,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      body: 'Olá, {{contactName}}! Sua consulta é amanhã.',
      contactId: home.contact.id,
      contact: { id: home.contact.id, name: 'Maria Souza', number: home.contact.number },
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      userId: home.admin.id,
      ticketId: null,
      whatsappId: null,
      mediaPath: null,
      mediaName: null,
    });
    expect((await row(res.json().id))!.companyId).toBe(home.companyId);
  });

  it("refuses a short text, a missing contact or time with the spec's messages", async () => {
    const short = await create(home.adminToken, {
      body: 'Oi',
      contactId: home.contact.id,
      sendAt: IN_A_YEAR(),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: [{ path: 'body.body', message: 'Mensagem muito curta' }],
    });
    const blank = await create(home.adminToken, {
      body: '      ',
      contactId: home.contact.id,
      sendAt: IN_A_YEAR(),
    });
    expect(blank.json().fields).toEqual([{ path: 'body.body', message: 'Mensagem muito curta' }]);
    const missing = await create(home.adminToken, { body: 'Mensagem completa' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'body.sendAt', message: 'Obrigatório' },
        expect.objectContaining({ path: 'body.contactId' }),
      ]),
    );
    const empty = await create(home.adminToken, {
      body: 'Mensagem completa',
      contactId: home.contact.id,
      sendAt: '',
    });
    expect(empty.json().fields).toEqual([{ path: 'body.sendAt', message: 'Obrigatório' }]);
    for (const sendAt of ['amanhã', '2030-02-30T10:00', '2030-01-01T25:00', 20300101]) {
      const bad = await create(home.adminToken, {
        body: 'Mensagem completa',
        contactId: home.contact.id,
        sendAt,
      });
      expect(bad.statusCode, String(sendAt)).toBe(400);
      expect(bad.json().fields[0].path).toBe('body.sendAt');
    }
    expect(await t.database.db.$count(schedules, eq(schedules.body, 'Mensagem completa'))).toBe(0);
  });

  it("reads the original client's local times on the company's clock", async () => {
    const company = await scheduling();
    const sendAtOf = async (sendAt: string) => {
      const res = await create(company.adminToken, {
        body: 'Lembrete do horário',
        contactId: company.contact.id,
        sendAt,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().sendAt as string;
    };
    // São Paulo (the default) is UTC-3.
    expect(await sendAtOf('2031-01-15T10:30')).toBe('2031-01-15T13:30:00.000Z');
    expect(await sendAtOf('2031-01-15 10:30:00')).toBe('2031-01-15T13:30:00.000Z');
    expect(await sendAtOf('2031-01-15T10:30:00.000Z')).toBe('2031-01-15T10:30:00.000Z');
    expect(await sendAtOf('2031-01-15T10:30:00+01:00')).toBe('2031-01-15T09:30:00.000Z');
    await make.setting(company.companyId, 'timezone', 'Asia/Tokyo');
    expect(await sendAtOf('2031-01-15T10:30')).toBe('2031-01-15T01:30:00.000Z');
  });

  it("takes only the company's contacts and connections", async () => {
    const theirs = await create(home.adminToken, {
      body: 'Mensagem para outro',
      contactId: other.contact.id,
      sendAt: IN_A_YEAR(),
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    const theirConnection = await create(home.adminToken, {
      body: 'Mensagem para outro',
      contactId: home.contact.id,
      whatsappId: other.connection!.id,
      sendAt: IN_A_YEAR(),
    });
    expect(theirConnection.statusCode).toBe(404);
    expect(theirConnection.json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
  });
});

describe('the plan and the company', () => {
  it("answers 403 when the company's plan has no schedules, 401 without a session", async () => {
    const plan = await t.make.plan({ useSchedules: false });
    const { admin } = await t.make.company({ planId: plan.id });
    const token = (await t.login(admin.email)).token;
    const list = await t.as(token).get('/schedules');
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.as(token).post('/schedules', {})).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/schedules' })).statusCode).toBe(401);
  });

  it("lets every user of the company see and edit the company's schedules", async () => {
    const ana = await agent(t, home.companyId, { name: 'Ana' });
    const created = (
      await create(home.adminToken, {
        body: 'Mensagem do admin',
        contactId: home.contact.id,
        sendAt: IN_A_YEAR(),
      })
    ).json();
    const read = await t.as(ana.token).get(`/schedules/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().body).toBe('Mensagem do admin');
    const edited = await t
      .as(ana.token)
      .put(`/schedules/${created.id}`, { body: 'Mensagem da Ana' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ body: 'Mensagem da Ana', userId: home.admin.id });
    expect((await t.as(ana.token).delete(`/schedules/${created.id}`)).statusCode).toBe(204);
    expect(await row(created.id)).toBeUndefined();
  });

  it("answers 404 for another company's schedule, which stays as it was", async () => {
    const theirs = (
      await create(other.adminToken, {
        body: 'Mensagem da outra empresa',
        contactId: other.contact.id,
        sendAt: IN_A_YEAR(),
      })
    ).json();
    const as = t.as(home.adminToken);
    expect((await as.get(`/schedules/${theirs.id}`)).statusCode).toBe(404);
    expect((await as.put(`/schedules/${theirs.id}`, { body: 'Invadido!!' })).statusCode).toBe(404);
    expect((await as.delete(`/schedules/${theirs.id}`)).statusCode).toBe(404);
    expect((await as.delete(`/schedules/${theirs.id}/media-upload`)).statusCode).toBe(404);
    const upload = await postForm(t, home.adminToken, `/schedules/${theirs.id}/media-upload`, {}, [
      { field: 'file', name: 'x.png', type: 'image/png', content: PNG },
    ]);
    expect(upload.statusCode).toBe(404);
    expect(await row(theirs.id)).toMatchObject({
      body: 'Mensagem da outra empresa',
      mediaPath: null,
    });
    const list = (await as.get('/schedules?searchParam=outra empresa')).json();
    expect(list).toEqual({ schedules: [], count: 0, hasMore: false });
  });
});

describe('GET /schedules', () => {
  it('pages by send time and searches the text and the contact name', async () => {
    const company = await scheduling();
    const joao = await make.contact(company.companyId, { name: 'João Pereira' });
    const times = [3, 1, 2].map((days) => new Date(Date.UTC(2032, 0, days, 12)).toISOString());
    for (const [index, sendAt] of times.entries()) {
      await create(company.adminToken, {
        body: `Cobrança número ${index}`,
        contactId: index === 2 ? joao.id : company.contact.id,
        sendAt,
      });
    }
    const page = (await t.as(company.adminToken).get('/schedules')).json();
    expect(page).toMatchObject({ count: 3, hasMore: false });
    expect(page.schedules.map((s: { sendAt: string }) => s.sendAt)).toEqual([...times].sort());
    const byName = (
      await t.as(company.adminToken).get('/schedules?searchParam=joão&pageNumber=1')
    ).json();
    expect(byName.schedules.map((s: { body: string }) => s.body)).toEqual(['Cobrança número 2']);
    expect(byName.schedules[0].contact).toEqual({
      id: joao.id,
      name: 'João Pereira',
      number: joao.number,
    });
    const byText = (await t.as(company.adminToken).get('/schedules?searchParam=número 1')).json();
    expect(byText.count).toBe(1);
    const ofContact = (
      await t.as(company.adminToken).get(`/schedules?contactId=${company.contact.id}`)
    ).json();
    expect(ofContact.count).toBe(2);
    expect((await t.as(company.adminToken).get('/schedules?pageNumber=2')).json()).toMatchObject({
      schedules: [],
      hasMore: false,
    });
  });
});

describe('media of a schedule', () => {
  it('attaches a .png or .jpg image and removes it; nothing else', async () => {
    const id = (
      await create(home.adminToken, {
        body: 'Segue o cardápio',
        contactId: home.contact.id,
        sendAt: IN_A_YEAR(),
      })
    ).json().id;
    const png = await postForm(
      t,
      home.adminToken,
      `/schedules/${id}/media-upload`,
      { typeArch: 'schedule' },
      [{ field: 'file', name: 'cardapio.png', type: 'image/png', content: PNG }],
    );
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json().mediaName).toBe('cardapio.png');
    expect(png.json().mediaPath).toMatch(
      new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.png\\?`),
    );
    const served = await t.app.inject({ method: 'GET', url: png.json().mediaPath });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const firstKey = (await row(id))!.mediaPath!;

    const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    const jpg = await postForm(t, home.adminToken, `/schedules/${id}/media-upload`, {}, [
      { field: 'file', name: 'foto.jpeg', type: 'image/jpeg', content: JPEG },
    ]);
    expect(jpg.statusCode, jpg.body).toBe(200);
    expect(jpg.json().mediaName).toBe('foto.jpeg');
    // The image it replaced is gone.
    const gone = await t.app.inject({ method: 'GET', url: png.json().mediaPath });
    expect(gone.statusCode).toBe(404);
    expect((await row(id))!.mediaPath).not.toBe(firstKey);

    for (const [type, name, content] of [
      ['image/gif', 'x.gif', Buffer.from('GIF89a')],
      ['application/pdf', 'x.pdf', Buffer.from('%PDF-1.4')],
      ['image/png', 'x.png', Buffer.from('<svg/>')],
    ] as const) {
      const refused = await postForm(t, home.adminToken, `/schedules/${id}/media-upload`, {}, [
        { field: 'file', name, type, content },
      ]);
      expect(refused.statusCode, name).toBe(415);
    }
    expect((await row(id))!.mediaName).toBe('foto.jpeg');

    const removed = await t.as(home.adminToken).delete(`/schedules/${id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await t.app.inject({ method: 'GET', url: jpg.json().mediaPath })).statusCode).toBe(404);
  });
});

describe('realtime', () => {
  it('tells the company, and only it, on company-{id}-schedule', async () => {
    const mine = await socketFor(t, home.adminToken);
    const theirs = await socketFor(t, other.adminToken);
    const heard: { action: string }[] = [];
    const overheard: unknown[] = [];
    mine.on(`company-${home.companyId}-schedule`, (payload) => heard.push(payload));
    theirs.onAny((event: string, payload) => {
      if (event.endsWith('-schedule')) overheard.push({ event, payload });
    });

    const created = (
      await create(home.adminToken, {
        body: 'Mensagem ao vivo',
        contactId: home.contact.id,
        sendAt: IN_A_YEAR(),
      })
    ).json();
    await t.as(home.adminToken).put(`/schedules/${created.id}`, { body: 'Mensagem ao vivo 2' });
    await t.as(home.adminToken).delete(`/schedules/${created.id}`);
    await expect.poll(() => heard.length).toBe(3);
    expect(heard).toEqual([
      { action: 'create', schedule: expect.objectContaining({ id: created.id }) },
      {
        action: 'update',
        schedule: expect.objectContaining({ id: created.id, body: 'Mensagem ao vivo 2' }),
      },
      { action: 'delete', scheduleId: created.id },
    ]);
    expect(overheard).toEqual([]);
  });
});

describe('sending', () => {
  let sender: Awaited<ReturnType<typeof scheduling>>;
  let simulatorId: number;
  let phoneSeq = 0;

  beforeAll(async () => {
    sender = await scheduling({ connection: false });
    simulatorId = await pairedSimulator(t, sender.adminToken);
  });

  /** A contact on its own phone, and a schedule for it already due. */
  async function dueSchedule(body: string, overrides: Record<string, unknown> = {}) {
    const phone = `55119666${String(++phoneSeq).padStart(5, '0')}`;
    const contact = await make.contact(sender.companyId, { name: 'Carla Dias', number: phone });
    const res = await create(sender.adminToken, {
      body,
      contactId: contact.id,
      sendAt: new Date(Date.now() + 60_000).toISOString(),
      ...overrides,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    // Due a moment ago (the job it queued waits a minute: the tests send it themselves).
    await t.database.db
      .update(schedules)
      .set({ sendAt: new Date(Date.now() - 1000) })
      .where(eq(schedules.id, id));
    return { id, phone, contact };
  }
  const service = () => t.app.services.schedules;
  const inbox = (phone: string) => phoneInbox(t, sender.adminToken, simulatorId, phone);

  it('sends a due schedule once, with its variables, in an open ticket of its user', async () => {
    const { id, phone, contact } = await dueSchedule('Olá {{contactFirstName}}, tudo certo?');
    expect(await service().send(sender.companyId, id)).toBe('sent');
    await expect
      .poll(async () => (await inbox(phone)).map((m) => m.body))
      .toEqual(['Olá Carla, tudo certo?']);
    const sent = (await row(id))!;
    expect(sent).toMatchObject({ status: 'ENVIADA', whatsappId: simulatorId });
    expect(sent.sentAt).toBeInstanceOf(Date);
    const [ticket] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.id, sent.ticketId!));
    expect(ticket).toMatchObject({
      contactId: contact.id,
      whatsappId: simulatorId,
      status: 'open',
      userId: sender.admin.id,
    });
    const [message] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, sent.messageId!));
    expect(message).toMatchObject({
      ticketId: ticket!.id,
      fromMe: true,
      body: 'Olá Carla, tudo certo?',
    });
    await expect
      .poll(
        async () =>
          (await t.database.db.select().from(messages).where(eq(messages.id, sent.messageId!)))[0]!
            .sendState,
      )
      .toBe('sent');

    // Again (a retried job, the sweep): nothing more goes out, and a sent one is not edited.
    expect(await service().send(sender.companyId, id)).toBe('done');
    await service().sweep();
    expect((await inbox(phone)).length).toBe(1);
    const edit = await t.as(sender.adminToken).put(`/schedules/${id}`, { body: 'Outro texto' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error).toBe('ERR_VALIDATION');
    const read = (await t.as(sender.adminToken).get(`/schedules/${id}`)).json();
    expect(read).toMatchObject({ status: 'ENVIADA', ticketId: ticket!.id });
    expect(read.sentAt).toEqual(expect.any(String));
    expect((await t.as(sender.adminToken).delete(`/schedules/${id}`)).statusCode).toBe(204);
    // Its message stays in the conversation.
    expect(await t.database.db.$count(messages, eq(messages.id, sent.messageId!))).toBe(1);
  });

  it('sends one message when two runs race for the same schedule', async () => {
    const { id, phone } = await dueSchedule('Corrida de envios');
    const outcomes = await Promise.all([
      service().send(sender.companyId, id),
      service().send(sender.companyId, id),
    ]);
    // The other run finds it taken: done, or still being delivered by the first.
    expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== 'sent')).toEqual([
      expect.stringMatching(/^(done|handed-over)$/),
    ]);
    await expect.poll(async () => (await inbox(phone)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await inbox(phone)).map((m) => m.body)).toEqual(['Corrida de envios']);
    expect(await t.database.db.$count(messages, eq(messages.body, 'Corrida de envios'))).toBe(1);
  });

  it("reuses the contact's live ticket on the connection", async () => {
    const { id, phone, contact } = await dueSchedule('Continuando a conversa');
    const live = await make.ticket(sender.companyId, {
      contactId: contact.id,
      whatsappId: simulatorId,
      status: 'pending',
    });
    expect(await service().send(sender.companyId, id)).toBe('sent');
    expect((await row(id))!.ticketId).toBe(live.id);
    const ofContact = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.contactId, contact.id));
    expect(ofContact.map((ticket) => [ticket.id, ticket.status])).toEqual([[live.id, 'pending']]);
    await expect.poll(async () => (await inbox(phone)).length).toBe(1);
  });

  it('sends its image with the text', async () => {
    const { id, phone } = await dueSchedule('Segue a foto do pedido');
    // Due again after the upload, which an unsent schedule still takes.
    await t.database.db
      .update(schedules)
      .set({ sendAt: new Date(Date.now() + 60_000) })
      .where(eq(schedules.id, id));
    const upload = await postForm(t, sender.adminToken, `/schedules/${id}/media-upload`, {}, [
      { field: 'file', name: 'pedido.png', type: 'image/png', content: PNG },
    ]);
    expect(upload.statusCode, upload.body).toBe(200);
    await t.database.db
      .update(schedules)
      .set({ sendAt: new Date(Date.now() - 1000) })
      .where(eq(schedules.id, id));
    expect(await service().send(sender.companyId, id)).toBe('sent');
    await expect
      .poll(async () => (await inbox(phone)).map((m) => [m.kind, m.body]))
      .toEqual([['image', 'Segue a foto do pedido']]);
    // Deleting the sent schedule keeps the image its message shows.
    const message = (await row(id))!.messageId!;
    await t.as(sender.adminToken).delete(`/schedules/${id}`);
    const page = (
      await t.as(sender.adminToken).get(`/messages/${(await ticketOfMessage(message))!}`)
    ).json();
    const shown = page.messages.find((m: { id: number }) => m.id === message);
    expect((await t.app.inject({ method: 'GET', url: shown.mediaUrl })).statusCode).toBe(200);
  });

  it('is marked ERRO when its connection is gone, and sends again once edited', async () => {
    const extra = await make.connection(sender.companyId, { isDefault: false });
    const { id, phone } = await dueSchedule('Conexão apagada', { whatsappId: extra.id });
    await t.database.db.delete(connections).where(eq(connections.id, extra.id));
    expect(await service().send(sender.companyId, id)).toBe('error');
    expect(await row(id)).toMatchObject({ status: 'ERRO', sentAt: null, messageId: null });
    expect(await inbox(phone)).toEqual([]);
    const read = (await t.as(sender.adminToken).get(`/schedules/${id}`)).json();
    expect(read.status).toBe('ERRO');
    const edited = await t.as(sender.adminToken).put(`/schedules/${id}`, {
      whatsappId: simulatorId,
      sendAt: new Date(Date.now() - 500).toISOString(),
    });
    expect(edited.json()).toMatchObject({ status: 'PENDENTE', whatsappId: simulatorId });
    await expect
      .poll(async () => (await inbox(phone)).map((m) => m.body))
      .toEqual(['Conexão apagada']);
  });

  /**
   * The network refuses the next `times` sends to `phone` (as WhatsApp refuses a send now and
   * then); the other sends go through.
   */
  function refuseSends(phone: string, times: number) {
    const channels = t.app.channels;
    const send = channels.send.bind(channels);
    let left = times;
    channels.send = async (connectionId, message) => {
      if (message.chatId.startsWith(phone) && left > 0) {
        left--;
        throw new Error('the network refused the message');
      }
      return send(connectionId, message);
    };
    return () => {
      channels.send = send;
    };
  }

  it('tries a refused send again, in the same message, and is sent once', async () => {
    const { id, phone } = await dueSchedule('Tentando de novo');
    const restore = refuseSends(phone, 1);
    try {
      await expect(
        service().send(sender.companyId, id, new Date(), { final: false }),
      ).rejects.toThrow(ScheduleSendError);
      // Not sent yet, and not editable while its message waits for the retry.
      expect(await row(id)).toMatchObject({ status: 'PENDENTE', sentAt: null });
      const messageId = (await row(id))!.messageId!;
      expect(
        (await t.as(sender.adminToken).put(`/schedules/${id}`, { body: 'Outro' })).statusCode,
      ).toBe(400);
      expect(await service().send(sender.companyId, id, new Date(), { final: true })).toBe('sent');
      expect(await row(id)).toMatchObject({ status: 'ENVIADA', messageId });
      await expect
        .poll(async () => (await inbox(phone)).map((m) => m.body))
        .toEqual(['Tentando de novo']);
      expect(await t.database.db.$count(messages, eq(messages.body, 'Tentando de novo'))).toBe(1);
    } finally {
      restore();
    }
  });

  it("shows 'Erro de Envio' (ERRO) when the last try is refused too, and sends again once edited", async () => {
    const { id, phone } = await dueSchedule('Sem sorte');
    const restore = refuseSends(phone, 2);
    try {
      await expect(
        service().send(sender.companyId, id, new Date(), { final: false }),
      ).rejects.toThrow(ScheduleSendError);
      expect(await service().send(sender.companyId, id, new Date(), { final: true })).toBe('error');
      expect(await row(id)).toMatchObject({ status: 'ERRO', sentAt: null });
      const read = (await t.as(sender.adminToken).get(`/schedules/${id}`)).json();
      expect(read.status).toBe('ERRO');
      expect(await inbox(phone)).toEqual([]);
      // The failed message stays in its conversation for a person; an edit schedules a new one.
      const edited = await t.as(sender.adminToken).put(`/schedules/${id}`, {
        sendAt: new Date(Date.now() - 500).toISOString(),
      });
      expect(edited.json()).toMatchObject({ status: 'PENDENTE' });
      await expect.poll(async () => (await row(id))!.status, { timeout: 15_000 }).toBe('ENVIADA');
      expect((await inbox(phone)).map((m) => m.body)).toEqual(['Sem sorte']);
    } finally {
      restore();
    }
  });

  it("is tried again by its job's retry after a refused send", { timeout: 40_000 }, async () => {
    const phone = '5511966668888';
    const contact = await make.contact(sender.companyId, { name: 'Edu', number: phone });
    const restore = refuseSends(phone, 1);
    try {
      const res = await create(sender.adminToken, {
        body: 'Na segunda tentativa',
        contactId: contact.id,
        sendAt: new Date(Date.now() + 500).toISOString(),
      });
      expect(res.statusCode).toBe(201);
      await expect
        .poll(async () => (await row(res.json().id))!.status, { timeout: 30_000 })
        .toBe('ENVIADA');
      expect((await inbox(phone)).map((m) => m.body)).toEqual(['Na segunda tentativa']);
    } finally {
      restore();
    }
  });

  it('is sent once when two instances race for it through their jobs and sweeps', async () => {
    const second = await startTestServer({}, t);
    try {
      const due = await Promise.all([1, 2, 3].map((n) => dueSchedule(`Duas instâncias ${n}`)));
      const runs: Promise<unknown>[] = due.flatMap(({ id }) => [
        service().send(sender.companyId, id),
        second.app.services.schedules.send(sender.companyId, id),
      ]);
      await Promise.all([...runs, service().sweep(), second.app.services.schedules.sweep()]);
      for (const [n, { id, phone }] of due.entries()) {
        await expect.poll(async () => (await row(id))!.status).toBe('ENVIADA');
        await expect.poll(async () => (await inbox(phone)).length).toBe(1);
        expect(
          await t.database.db.$count(messages, eq(messages.body, `Duas instâncias ${n + 1}`)),
        ).toBe(1);
      }
    } finally {
      await second.stop();
    }
  });

  it('is settled as soon as the instance that runs its connection sends it', async () => {
    const second = await startTestServer({}, t);
    try {
      const { id, phone } = await dueSchedule('Entregue pela outra instância');
      // The second instance does not run the connection: it claims and hands the message over.
      expect(await second.app.services.schedules.send(sender.companyId, id)).toBe('handed-over');
      await expect.poll(async () => (await inbox(phone)).length).toBe(1);
      // Settled by the owner's send, well before the sweep's next minute.
      await expect.poll(async () => (await row(id))!.status).toBe('ENVIADA');
      expect((await row(id))!.sentAt).not.toBeNull();
    } finally {
      await second.stop();
    }
  });

  it('leaves a schedule in the future to its time: the sweep takes only due ones', async () => {
    const later = await dueSchedule('Ainda não é a hora');
    await t.database.db
      .update(schedules)
      .set({ sendAt: new Date(Date.now() + 3_600_000) })
      .where(eq(schedules.id, later.id));
    const due = await dueSchedule('Já passou da hora');
    // The sweep queues a job for each due one still waiting (its own was lost).
    await service().sweep();
    await expect.poll(async () => (await row(due.id))!.status).toBe('ENVIADA');
    expect((await row(later.id))!.status).toBe('PENDENTE');
    expect(await service().send(sender.companyId, later.id)).toBe('not-due');
    await expect.poll(async () => (await inbox(due.phone)).length).toBe(1);
    expect(await inbox(later.phone)).toEqual([]);
  });

  it('goes out through the job engine at its time, and through the sweep job', async () => {
    const phone = '5511966669999';
    const contact = await make.contact(sender.companyId, { name: 'Davi', number: phone });
    const res = await create(sender.adminToken, {
      body: 'Chegou a hora marcada',
      contactId: contact.id,
      sendAt: new Date(Date.now() + 1000).toISOString(),
    });
    expect(res.statusCode).toBe(201);
    await expect
      .poll(async () => (await inbox(phone)).map((m) => m.body), { timeout: 15_000 })
      .toEqual(['Chegou a hora marcada']);
    await expect.poll(async () => (await row(res.json().id))!.status).toBe('ENVIADA');

    // A schedule whose job was lost (written straight to the table) is found by the sweep job.
    const lost = await dueSchedule('Job perdido');
    // As the minute's cron tick sends it: with no data at all.
    await t.app.platform.jobs.send(SCHEDULE_SWEEP_JOB, null as unknown as object);
    await expect
      .poll(async () => (await inbox(lost.phone)).map((m) => m.body), { timeout: 15_000 })
      .toEqual(['Job perdido']);
  });
});

async function ticketOfMessage(id: number) {
  const [row] = await t.database.db
    .select({ ticketId: messages.ticketId })
    .from(messages)
    .where(eq(messages.id, id));
  return row?.ticketId;
}
