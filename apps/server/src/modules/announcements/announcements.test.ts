import { existsSync } from 'node:fs';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { closeSockets, PNG, postForm, socketFor } from '../../../test/inbox';

/**
 * Announcements are the platform's: the super user writes them, every signed-in user of every
 * company reads the active ones and hears each change on `company-announcement`.
 */

let t: TestServer;
let superToken: string;
let adminToken: string;
let userToken: string;
let otherUserToken: string;

beforeAll(async () => {
  t = await startTestServer();
  superToken = (await t.login((await t.make.company({ super: true })).admin.email)).token;
  const home = await t.make.company();
  adminToken = (await t.login(home.admin.email)).token;
  userToken = (await t.login((await t.make.user(home.company.id)).email)).token;
  const other = await t.make.company();
  otherUserToken = (await t.login((await t.make.user(other.company.id)).email)).token;
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

const create = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/announcements', body);

describe('announcements', () => {
  it('are written by the super user only', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/announcements', payload: {} })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/announcements' })).statusCode).toBe(401);
    for (const token of [adminToken, userToken, otherUserToken]) {
      const denied = await create(token, { title: 'Aviso', text: 'Texto' });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    const created = await create(superToken, { title: 'Manutenção', text: 'Sábado às 22h' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    expect(created.json()).toMatchObject({
      title: 'Manutenção',
      text: 'Sábado às 22h',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
    });
    for (const token of [adminToken, userToken]) {
      expect((await t.as(token).put(`/announcements/${id}`, { title: 'x' })).statusCode).toBe(403);
      expect((await t.as(token).delete(`/announcements/${id}`)).statusCode).toBe(403);
      expect((await t.as(token).delete(`/announcements/${id}/media-upload`)).statusCode).toBe(403);
      const upload = await postForm(t, token, `/announcements/${id}/media-upload`, {}, [
        { field: 'file', name: 'x.png', type: 'image/png', content: PNG },
      ]);
      expect(upload.statusCode).toBe(403);
    }
    const updated = await t
      .as(superToken)
      .put(`/announcements/${id}`, { title: 'Manutenção programada', priority: 1 });
    expect(updated.json()).toMatchObject({ id, title: 'Manutenção programada', priority: 1 });
    expect((await t.as(superToken).delete(`/announcements/${id}`)).statusCode).toBe(204);
    expect((await t.as(superToken).delete(`/announcements/${id}`)).statusCode).toBe(404);
    expect((await t.as(superToken).put(`/announcements/${id}`, { title: 'y' })).statusCode).toBe(
      404,
    );
  });

  it('are read by every user of every company, the active ones only', async () => {
    const active = (
      await create(superToken, { title: 'Novidade', text: 'Nova tela', priority: 2 })
    ).json();
    const hidden = (
      await create(superToken, { title: 'Rascunho', text: 'Ainda não', status: false })
    ).json();
    for (const token of [adminToken, userToken, otherUserToken]) {
      const list = await t.as(token).get('/announcements?pageNumber=1');
      expect(list.statusCode).toBe(200);
      const ids = list.json().records.map((record: { id: number }) => record.id);
      expect(ids).toContain(active.id);
      expect(ids).not.toContain(hidden.id);
      expect(list.json().hasMore).toBe(false);
      expect((await t.as(token).get(`/announcements/${active.id}`)).json()).toMatchObject({
        title: 'Novidade',
        priority: 2,
      });
      expect((await t.as(token).get(`/announcements/${hidden.id}`)).statusCode).toBe(404);
    }
    const all = await t.as(superToken).get('/announcements');
    expect(all.json().records.map((record: { id: number }) => record.id)).toEqual(
      expect.arrayContaining([active.id, hidden.id]),
    );
    const searched = await t.as(otherUserToken).get('/announcements?searchParam=novid');
    expect(searched.json().records.map((record: { id: number }) => record.id)).toEqual([active.id]);
    expect((await t.as(superToken).get(`/announcements/${hidden.id}`)).statusCode).toBe(200);
    expect((await t.as(superToken).get('/announcements/999999')).statusCode).toBe(404);
  });

  it('pages by 20, most urgent first', async () => {
    for (let index = 0; index < 21; index += 1) {
      await create(superToken, {
        title: `Lote ${index}`,
        text: 't',
        priority: index === 20 ? 1 : 3,
      });
    }
    const first = (
      await t.as(userToken).get('/announcements?searchParam=Lote&pageNumber=1')
    ).json();
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.records[0].title).toBe('Lote 20');
    const second = (
      await t.as(userToken).get('/announcements?searchParam=Lote&pageNumber=2')
    ).json();
    expect(second.records).toHaveLength(1);
    expect(second.hasMore).toBe(false);
  });

  it('refuses bad input', async () => {
    const missing = await create(superToken, { title: ' ', text: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'body.title', message: 'Required' }),
        expect.objectContaining({ path: 'body.text', message: 'Required' }),
      ]),
    );
    expect((await create(superToken, { text: 'sem título' })).statusCode).toBe(400);
    expect((await create(superToken, { title: 'a', text: 'b', priority: 4 })).statusCode).toBe(400);
    expect((await create(superToken, { title: 'a', text: 'b', status: 'x' })).statusCode).toBe(400);
    expect((await create(superToken, { title: 'a'.repeat(201), text: 'b' })).statusCode).toBe(400);
    expect((await t.as(superToken).get('/announcements/abc')).statusCode).toBe(400);
  });

  it('attach a .png or .jpg image served by a signed address, and remove it', async () => {
    const { id } = (await create(superToken, { title: 'Com imagem', text: 'Veja' })).json();
    const text = await postForm(t, superToken, `/announcements/${id}/media-upload`, {}, [
      { field: 'file', name: 'x.txt', type: 'text/plain', content: Buffer.from('hello') },
    ]);
    expect(text.statusCode).toBe(415);
    const noFile = await postForm(t, superToken, `/announcements/${id}/media-upload`, {
      typeArch: 'announcements',
    });
    expect(noFile.statusCode).toBe(400);
    const missing = await postForm(t, superToken, '/announcements/999999/media-upload', {}, [
      { field: 'file', name: 'x.png', type: 'image/png', content: PNG },
    ]);
    expect(missing.statusCode).toBe(404);

    const res = await postForm(
      t,
      superToken,
      `/announcements/${id}/media-upload`,
      { typeArch: 'announcements' },
      [{ field: 'file', name: 'aviso.png', type: 'image/png', content: PNG }],
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mediaName: 'aviso.png' });
    expect(res.json().mediaPath).toMatch(/^\/media\/\d+\/[0-9a-f-]{36}\.png\?/);
    // Another company's user reads it through the record's signed address.
    const read = (await t.as(otherUserToken).get(`/announcements/${id}`)).json();
    const served = await t.app.inject({ method: 'GET', url: read.mediaPath });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const key = read.mediaPath.slice('/media/'.length).split('?')[0];
    const path = t.app.platform.storage.pathOf(key);
    expect(existsSync(path)).toBe(true);

    const removed = await t.as(superToken).delete(`/announcements/${id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null });
    expect(existsSync(path)).toBe(false);
  });
});

describe('company-announcement', () => {
  it('reaches the sockets of every company, the writer’s and others', async () => {
    const heard: { action: string; record?: { id: number; title: string }; id?: number }[] = [];
    const sockets: Socket[] = [
      await socketFor(t, otherUserToken),
      await socketFor(t, userToken),
      await socketFor(t, superToken),
    ];
    const perSocket = sockets.map(() => [] as string[]);
    sockets.forEach((socket, index) => {
      socket.on('company-announcement', (payload: (typeof heard)[number]) => {
        heard.push(payload);
        perSocket[index]!.push(payload.action);
      });
    });
    const { id } = (await create(superToken, { title: 'Ao vivo', text: 'Olá a todos' })).json();
    await expect
      .poll(() => perSocket.map((actions) => actions.join()))
      .toEqual(['create', 'create', 'create']);
    expect(heard[0]).toMatchObject({ action: 'create', record: { id, title: 'Ao vivo' } });
    await t.as(superToken).put(`/announcements/${id}`, { title: 'Ao vivo, revisto' });
    await expect.poll(() => perSocket[0]).toEqual(['create', 'update']);
    await t.as(superToken).delete(`/announcements/${id}`);
    await expect.poll(() => perSocket[0]).toEqual(['create', 'update', 'delete']);
    expect(heard.at(-1)).toEqual({ action: 'delete', id });
  });

  it('never carries a draft, which GET hides from everyone but the super user', async () => {
    const sockets: Socket[] = [
      await socketFor(t, otherUserToken),
      await socketFor(t, userToken),
      await socketFor(t, adminToken),
      await socketFor(t, superToken),
    ];
    const heard = sockets.map(
      () => [] as { action: string; id?: number; record?: { id: number } }[],
    );
    sockets.forEach((socket, index) => {
      socket.on('company-announcement', (payload: (typeof heard)[number][number]) => {
        heard[index]!.push(payload);
      });
    });
    const draft = (
      await create(superToken, { title: 'Rascunho secreto', text: 'Ainda não', status: false })
    ).json();
    expect((await t.as(userToken).get(`/announcements/${draft.id}`)).statusCode).toBe(404);
    await t.as(superToken).put(`/announcements/${draft.id}`, { text: 'Ainda não, revisto' });
    await postForm(t, superToken, `/announcements/${draft.id}/media-upload`, {}, [
      { field: 'file', name: 'capa.png', type: 'image/png', content: PNG },
    ]);
    await t.as(superToken).delete(`/announcements/${draft.id}/media-upload`);
    // Published, heard; withdrawn, heard as gone (its id only); then deleted, heard by nobody.
    const live = (await create(superToken, { title: 'Publicado', text: 'Agora sim' })).json();
    await t.as(superToken).put(`/announcements/${live.id}`, { status: false });
    await t.as(superToken).delete(`/announcements/${live.id}`);
    // Each socket hears in order: the marker after the deletion proves nothing more was coming.
    const marker = (await create(superToken, { title: 'Marcador', text: 'fim' })).json();
    for (const [index, payloads] of heard.entries()) {
      await expect
        .poll(() => payloads.some((payload) => payload.record?.id === marker.id))
        .toBe(true);
      expect(payloads, `socket ${index}`).toEqual([
        expect.objectContaining({
          action: 'create',
          record: expect.objectContaining({ id: live.id }),
        }),
        { action: 'delete', id: live.id },
        expect.objectContaining({
          action: 'create',
          record: expect.objectContaining({ id: marker.id }),
        }),
      ]);
    }
    expect(JSON.stringify(heard)).not.toContain('Rascunho');
    expect(t.emitted.some((entry) => JSON.stringify(entry.payload).includes('Rascunho'))).toBe(
      false,
    );
  });
});
