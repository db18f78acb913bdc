import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, closeSockets, socketFor } from '../../../test/inbox';
import { chatMessages, chats, chatUsers } from '../../db/schema';

let t: TestServer;

/** A company whose plan has internal chat: its admin and two agents, signed in. */
async function chatting() {
  const plan = await t.make.plan({ useInternalChat: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const ana = await agent(t, company.id, { name: 'Ana' });
  const bruno = await agent(t, company.id, { name: 'Bruno' });
  const carla = await agent(t, company.id, { name: 'Carla' });
  return { companyId: company.id, admin, adminToken, ana, bruno, carla };
}

let home: Awaited<ReturnType<typeof chatting>>;
let other: Awaited<ReturnType<typeof chatting>>;

beforeAll(async () => {
  t = await startTestServer();
  home = await chatting();
  other = await chatting();
});
afterEach(() => closeSockets());
afterAll(() => t.stop());

/** A chat of Ana's with Bruno. */
async function anaAndBruno(title = 'Plantão de sábado') {
  const res = await t
    .as(home.ana.token)
    .post('/chats', { title, users: [{ id: home.bruno.user.id, name: 'Bruno' }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; uuid: string; users: { userId: number; unreads: number }[] };
}

const unreadsOf = async (chatId: number, userId: number) =>
  (await t.database.db.select().from(chatUsers).where(eq(chatUsers.chatId, chatId))).find(
    (row) => row.userId === userId,
  )?.unreads;

describe('POST /chats', () => {
  it('creates a chat owned by the caller, who is always a member', async () => {
    const res = await t.as(home.ana.token).post('/chats', {
      title: '  Escala da semana ',
      users: [{ id: home.bruno.user.id, name: 'Bruno' }, home.carla.user.id],
      // the original client sends these; they decide nothing
      companyId: other.companyId,
      ownerId: home.bruno.user.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const chat = res.json();
    expect(chat).toMatchObject({
      title: 'Escala da semana',
      ownerId: home.ana.user.id,
      lastMessage: '',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(chat.users).toEqual([
      { userId: home.ana.user.id, unreads: 0, user: { id: home.ana.user.id, name: 'Ana' } },
      { userId: home.bruno.user.id, unreads: 0, user: { id: home.bruno.user.id, name: 'Bruno' } },
      { userId: home.carla.user.id, unreads: 0, user: { id: home.carla.user.id, name: 'Carla' } },
    ]);
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(row!.companyId).toBe(home.companyId);
  });

  it("refuses a missing title or no users with the spec's messages", async () => {
    const as = t.as(home.ana.token);
    const noTitle = await as.post('/chats', { title: '   ', users: [home.bruno.user.id] });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fields).toEqual([
      { path: 'body.title', message: 'Por favor, preencha o título da conversa.' },
    ]);
    const noUsers = await as.post('/chats', { title: 'Sem ninguém', users: [] });
    expect(noUsers.json().fields).toEqual([
      { path: 'body.users', message: 'Por favor, selecione pelo menos um usuário.' },
    ]);
    const nothing = await as.post('/chats', {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().fields).toEqual(
      expect.arrayContaining([
        { path: 'body.title', message: 'Por favor, preencha o título da conversa.' },
        { path: 'body.users', message: 'Por favor, selecione pelo menos um usuário.' },
      ]),
    );
  });

  it("refuses another company's user as a member, and stores nothing", async () => {
    const before = await t.database.db.$count(chats);
    const res = await t
      .as(home.ana.token)
      .post('/chats', { title: 'Intrusa', users: [other.bruno.user.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: [{ path: 'body.users' }] });
    expect(await t.database.db.$count(chats)).toBe(before);
  });
});

describe('the plan, the session and membership', () => {
  it("answers 403 when the company's plan has no internal chat, 401 without a session", async () => {
    const plan = await t.make.plan({ useInternalChat: false });
    const { company, admin } = await t.make.company({ planId: plan.id });
    const adminToken = (await t.login(admin.email)).token;
    const user = await agent(t, company.id);
    for (const token of [adminToken, user.token]) {
      const list = await t.as(token).get('/chats');
      expect(list.statusCode).toBe(403);
      expect(list.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      expect(
        (await t.as(token).post('/chats', { title: 'x', users: [user.user.id] })).statusCode,
      ).toBe(403);
    }
    for (const [method, url] of [
      ['GET', '/chats'],
      ['POST', '/chats'],
      ['GET', '/chats/1/messages'],
      ['POST', '/chats/1/read'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });

  it('lists only the chats the caller is a member of, latest activity first', async () => {
    const first = await anaAndBruno('Primeira conversa');
    const second = await anaAndBruno('Segunda conversa');
    await t.as(home.bruno.token).post(`/chats/${first.id}/messages`, { message: 'sobe' });
    const ana = (await t.as(home.ana.token).get('/chats')).json();
    const ids = ana.records.map((chat: { id: number }) => chat.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ana).toMatchObject({ hasMore: false, count: ana.records.length });
    // Carla and the admin are not members: they see neither.
    for (const token of [home.carla.token, home.adminToken]) {
      const seen = (await t.as(token).get('/chats'))
        .json()
        .records.map((c: { id: number }) => c.id);
      expect(seen).not.toContain(first.id);
      expect(seen).not.toContain(second.id);
    }
    const searched = (await t.as(home.ana.token).get('/chats?searchParam=segunda')).json();
    expect(searched.records.map((c: { id: number }) => c.id)).toEqual([second.id]);
  });

  it('reads one chat by id or by uuid, for members only', async () => {
    const chat = await anaAndBruno();
    for (const ref of [chat.id, chat.uuid]) {
      const mine = await t.as(home.bruno.token).get(`/chats/${ref}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().id).toBe(chat.id);
      expect((await t.as(home.carla.token).get(`/chats/${ref}`)).json()).toEqual({
        error: 'ERR_NOT_FOUND',
      });
    }
    expect((await t.as(home.ana.token).get('/chats/not-a-chat')).statusCode).toBe(400);
  });

  it('answers 404 to a non-member and to another company, on every route', async () => {
    const chat = await anaAndBruno();
    const outsiders = [home.carla.token, home.adminToken, other.ana.token, other.adminToken];
    for (const token of outsiders) {
      const as = t.as(token);
      for (const res of [
        await as.get(`/chats/${chat.id}`),
        await as.put(`/chats/${chat.id}`, { title: 'Tomada' }),
        await as.delete(`/chats/${chat.id}`),
        await as.get(`/chats/${chat.id}/messages`),
        await as.post(`/chats/${chat.id}/messages`, { message: 'Olá?' }),
        await as.post(`/chats/${chat.id}/read`, { userId: home.ana.user.id }),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
      }
    }
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(row!.title).toBe('Plantão de sábado');
    expect(await t.database.db.$count(chatMessages, eq(chatMessages.chatId, chat.id))).toBe(0);
  });
});

describe('PUT and DELETE /chats/:id', () => {
  it('lets only the owner rename it or change its members; the owner stays a member', async () => {
    const chat = await anaAndBruno();
    const notOwner = await t.as(home.bruno.token).put(`/chats/${chat.id}`, { title: 'Minha' });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json()).toEqual({ error: 'ERR_NO_PERMISSION' });

    const res = await t.as(home.ana.token).put(`/chats/${chat.id}`, {
      title: 'Plantão de domingo',
      users: [{ id: home.carla.user.id }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Plantão de domingo', ownerId: home.ana.user.id });
    expect(
      res
        .json()
        .users.map((u: { userId: number }) => u.userId)
        .sort(),
    ).toEqual([home.ana.user.id, home.carla.user.id].sort());
    // Bruno is no longer a member.
    expect((await t.as(home.bruno.token).get(`/chats/${chat.id}`)).statusCode).toBe(404);
    expect((await t.as(home.carla.token).get(`/chats/${chat.id}`)).statusCode).toBe(200);

    const blank = await t.as(home.ana.token).put(`/chats/${chat.id}`, { title: '' });
    expect(blank.json().fields).toEqual([
      { path: 'body.title', message: 'Por favor, preencha o título da conversa.' },
    ]);
    const foreign = await t
      .as(home.ana.token)
      .put(`/chats/${chat.id}`, { users: [other.ana.user.id] });
    expect(foreign.statusCode).toBe(400);
  });

  it('lets only the owner delete it, with its messages', async () => {
    const chat = await anaAndBruno();
    await t.as(home.bruno.token).post(`/chats/${chat.id}/messages`, { message: 'Até logo' });
    const notOwner = await t.as(home.bruno.token).delete(`/chats/${chat.id}`);
    expect(notOwner.statusCode).toBe(403);
    expect((await t.as(home.ana.token).delete(`/chats/${chat.id}`)).statusCode).toBe(204);
    expect(await t.database.db.$count(chats, eq(chats.id, chat.id))).toBe(0);
    expect(await t.database.db.$count(chatMessages, eq(chatMessages.chatId, chat.id))).toBe(0);
    expect((await t.as(home.ana.token).get(`/chats/${chat.id}`)).statusCode).toBe(404);
  });
});

describe('messages and unread counts', () => {
  it('stores a message, moves the preview and counts it unread for the other members', async () => {
    const chat = await anaAndBruno();
    const res = await t
      .as(home.ana.token)
      .post(`/chats/${chat.id}/messages`, { message: '  Bom dia, equipe!  ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      chatId: chat.id,
      senderId: home.ana.user.id,
      sender: { id: home.ana.user.id, name: 'Ana' },
      message: 'Bom dia, equipe!',
    });
    expect(await unreadsOf(chat.id, home.bruno.user.id)).toBe(1);
    expect(await unreadsOf(chat.id, home.ana.user.id)).toBe(0);
    await t.as(home.ana.token).post(`/chats/${chat.id}/messages`, { message: 'Alguém?' });
    const bruno = (await t.as(home.bruno.token).get(`/chats/${chat.id}`)).json();
    expect(bruno.lastMessage).toBe('Alguém?');
    expect(
      bruno.users.find((u: { userId: number }) => u.userId === home.bruno.user.id),
    ).toMatchObject({ unreads: 2 });
  });

  it('does not send a blank message', async () => {
    const chat = await anaAndBruno();
    for (const message of ['', '   \n ', undefined]) {
      const res = await t.as(home.ana.token).post(`/chats/${chat.id}/messages`, { message });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0].path).toBe('body.message');
    }
    expect(await t.database.db.$count(chatMessages, eq(chatMessages.chatId, chat.id))).toBe(0);
  });

  it("clears only the caller's unread count on read, whatever userId it sends", async () => {
    const chat = await t
      .as(home.ana.token)
      .post('/chats', { title: 'Três', users: [home.bruno.user.id, home.carla.user.id] });
    const id = chat.json().id;
    await t.as(home.ana.token).post(`/chats/${id}/messages`, { message: 'Um' });
    await t.as(home.ana.token).post(`/chats/${id}/messages`, { message: 'Dois' });
    const read = await t
      .as(home.bruno.token)
      .post(`/chats/${id}/read`, { userId: home.carla.user.id });
    expect(read.statusCode, read.body).toBe(200);
    expect(await unreadsOf(id, home.bruno.user.id)).toBe(0);
    expect(await unreadsOf(id, home.carla.user.id)).toBe(2);
    // The original client may post it with no body.
    const bare = await t.app.inject({
      method: 'POST',
      url: `/chats/${id}/read`,
      headers: { authorization: `Bearer ${home.carla.token}` },
    });
    expect(bare.statusCode).toBe(200);
    expect(await unreadsOf(id, home.carla.user.id)).toBe(0);
  });

  it('answers a message’s file (one brought from Whaticket) at a signed address, with its name', async () => {
    const chat = await anaAndBruno();
    const bytes = Buffer.from('%PDF-1.4 escala');
    const stored = await t.app.platform.storage.save(
      home.companyId,
      'application/pdf',
      Readable.from([bytes]),
    );
    await t.database.db.insert(chatMessages).values({
      companyId: home.companyId,
      chatId: chat.id,
      senderId: home.ana.user.id,
      message: 'Segue a escala',
      mediaPath: stored.key,
      mediaName: 'Escala de março.pdf',
      mediaMime: 'application/pdf',
    });
    await t.as(home.ana.token).post(`/chats/${chat.id}/messages`, { message: 'Sem arquivo' });
    const page = (await t.as(home.bruno.token).get(`/chats/${chat.id}/messages`)).json();
    const [withFile, without] = page.records;
    expect(withFile).toMatchObject({ mediaName: 'Escala de março.pdf' });
    expect(withFile.mediaPath).toMatch(/^\/media\/\d+\/[0-9a-f-]{36}\.pdf\?expires=\d+&signature=/);
    expect(without).toMatchObject({ mediaPath: null, mediaName: null });
    const served = await t.app.inject({ method: 'GET', url: withFile.mediaPath });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it('pages messages from the newest, each page oldest first, with hasMore', async () => {
    const chat = await anaAndBruno();
    for (let n = 1; n <= 25; n++) {
      const who = n % 2 ? home.ana.token : home.bruno.token;
      await t.as(who).post(`/chats/${chat.id}/messages`, { message: `Mensagem ${n}` });
    }
    const first = (await t.as(home.bruno.token).get(`/chats/${chat.id}/messages`)).json();
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.records.map((m: { message: string }) => m.message)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Mensagem ${i + 6}`),
    );
    expect(first.records[0]).toMatchObject({ sender: { name: 'Bruno' } });
    const second = (
      await t.as(home.bruno.token).get(`/chats/${chat.id}/messages?pageNumber=2`)
    ).json();
    expect(second.hasMore).toBe(false);
    expect(second.records.map((m: { message: string }) => m.message)).toEqual(
      Array.from({ length: 5 }, (_, i) => `Mensagem ${i + 1}`),
    );
  });
});

describe('realtime company-{id}-chat', () => {
  /** Every company-*-chat event a socket hears. */
  const listen = (socket: Socket) => {
    const heard: { event: string; payload: Record<string, unknown> }[] = [];
    socket.onAny((event: string, payload) => {
      if (event.endsWith('-chat')) heard.push({ event, payload });
    });
    return heard;
  };
  /** Sockets of the two members, a user who is not one, the admin and another company's user. */
  const everyone = () =>
    Promise.all(
      [home.ana.token, home.bruno.token, home.carla.token, home.adminToken, other.ana.token].map(
        (token) => socketFor(t, token),
      ),
    ) as Promise<[Socket, Socket, Socket, Socket, Socket]>;

  it("reaches the chat's members only: not other users, admins or companies", async () => {
    const [ana, bruno, carla, admin, stranger] = await everyone();
    const heardAna = listen(ana);
    const heardBruno = listen(bruno);
    const heardCarla = listen(carla);
    const heardAdmin = listen(admin);
    const heardStranger = listen(stranger);

    const chat = await anaAndBruno('Ao vivo');
    const sent = (
      await t.as(home.ana.token).post(`/chats/${chat.id}/messages`, { message: 'Chegou?' })
    ).json();
    await t.as(home.bruno.token).post(`/chats/${chat.id}/read`, {});
    await t.as(home.ana.token).delete(`/chats/${chat.id}`);

    const event = `company-${home.companyId}-chat`;
    const expected = [
      {
        event,
        payload: expect.objectContaining({
          action: 'create',
          record: expect.objectContaining({ id: chat.id }),
        }),
      },
      {
        event,
        payload: {
          action: 'new-message',
          newMessage: { ...sent, chat: expect.objectContaining({ id: chat.id }) },
          chat: expect.objectContaining({ id: chat.id, lastMessage: 'Chegou?' }),
        },
      },
      { event, payload: { action: 'delete', id: chat.id } },
    ];
    await expect.poll(() => heardAna.length).toBe(4);
    await expect.poll(() => heardBruno.length).toBe(4);
    // Both hear Bruno's read too (an update whose chat shows his count cleared).
    expect(heardAna).toEqual(heardBruno);
    expect(heardBruno).toEqual([
      expected[0],
      expected[1],
      {
        event,
        payload: expect.objectContaining({
          action: 'update',
          chat: expect.objectContaining({ id: chat.id }),
        }),
      },
      expected[2],
    ]);
    const brunoOf = (payload: Record<string, unknown>) =>
      (payload.chat as { users: { userId: number; unreads: number }[] }).users.find(
        (u) => u.userId === home.bruno.user.id,
      )?.unreads;
    expect(brunoOf(heardBruno[1]!.payload)).toBe(1);
    expect(brunoOf(heardBruno[2]!.payload)).toBe(0);

    // A marker after: what Carla, the admin or the other company could have heard has arrived.
    const marker = await anaAndBruno('Marcador');
    await t.as(home.ana.token).put(`/chats/${marker.id}`, { users: [home.carla.user.id] });
    await expect.poll(() => heardCarla.length).toBe(1);
    expect(heardCarla).toEqual([
      {
        event,
        payload: expect.objectContaining({
          action: 'update',
          record: expect.objectContaining({ id: marker.id }),
        }),
      },
    ]);
    // Bruno, removed, is told the chat is gone for him.
    await expect
      .poll(() => heardBruno.at(-1)?.payload)
      .toEqual({ action: 'delete', id: marker.id });
    expect(heardAdmin).toEqual([]);
    expect(heardStranger).toEqual([]);
  });

  it("speaks on the original client's topics of one chat and one member, to members only", async () => {
    const [ana, bruno, carla, admin, stranger] = await everyone();
    /** Every event of a chat's or a member's own topic (company-{id}-chat-...). */
    const listenOwn = (socket: Socket) => {
      const heard: { event: string; payload: Record<string, unknown> }[] = [];
      socket.onAny((event: string, payload) => {
        if (/-chat-/.test(event)) heard.push({ event, payload });
      });
      return heard;
    };
    const heardAna = listenOwn(ana);
    const heardBruno = listenOwn(bruno);
    const others = [listenOwn(carla), listenOwn(admin), listenOwn(stranger)];

    const chat = await anaAndBruno('Canais');
    const sent = (
      await t.as(home.bruno.token).post(`/chats/${chat.id}/messages`, { message: 'Oi, Ana' })
    ).json();
    await t.as(home.ana.token).post(`/chats/${chat.id}/read`, {});

    const prefix = `company-${home.companyId}`;
    const own = (userId: number) => ({
      event: `${prefix}-chat-user-${userId}`,
      payload: { action: 'create', record: expect.objectContaining({ id: chat.id }) },
    });
    const channel = [
      {
        event: `${prefix}-chat-${chat.id}`,
        payload: {
          action: 'new-message',
          newMessage: {
            ...sent,
            // What the original's popover reads of every message: the chat's members.
            chat: expect.objectContaining({
              id: chat.id,
              users: expect.arrayContaining([
                expect.objectContaining({ userId: home.ana.user.id }),
                expect.objectContaining({ userId: home.bruno.user.id }),
              ]),
            }),
          },
          chat: expect.objectContaining({ id: chat.id, lastMessage: 'Oi, Ana' }),
        },
      },
      {
        event: `${prefix}-chat-${chat.id}`,
        payload: { action: 'update', chat: expect.objectContaining({ id: chat.id }) },
      },
    ];
    await expect.poll(() => heardAna.length).toBe(3);
    await expect.poll(() => heardBruno.length).toBe(3);
    // Each member hears the new chat on its own list topic only.
    expect(heardAna).toEqual([own(home.ana.user.id), ...channel]);
    expect(heardBruno).toEqual([own(home.bruno.user.id), ...channel]);

    // A marker after, to Carla's own topic: what the others could have heard has arrived.
    const marker = await anaAndBruno('Marcador');
    await t.as(home.ana.token).put(`/chats/${marker.id}`, { users: [home.carla.user.id] });
    await expect.poll(() => others[0]!.length).toBe(1);
    expect(others[0]).toEqual([
      {
        event: `${prefix}-chat-user-${home.carla.user.id}`,
        payload: { action: 'update', record: expect.objectContaining({ id: marker.id }) },
      },
    ]);
    expect(others[1]).toEqual([]);
    expect(others[2]).toEqual([]);
  });
});
