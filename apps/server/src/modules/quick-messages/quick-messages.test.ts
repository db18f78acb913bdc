import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, inboxCompany, PNG, postForm } from '../../../test/inbox';
import { quickMessages } from '../../db/schema';

let t: TestServer;
let home: Awaited<ReturnType<typeof inboxCompany>>;
let other: Awaited<ReturnType<typeof inboxCompany>>;
let ana: Awaited<ReturnType<typeof agent>>;
let bia: Awaited<ReturnType<typeof agent>>;

beforeAll(async () => {
  t = await startTestServer();
  home = await inboxCompany(t);
  other = await inboxCompany(t);
  ana = await agent(t, home.companyId, { name: 'Ana' });
  bia = await agent(t, home.companyId, { name: 'Bia' });
});
afterAll(() => t.stop());

const create = (token: string, body: Record<string, unknown>) =>
  t.as(token).post('/quick-messages', body);

const row = async (id: number) =>
  (await t.database.db.select().from(quickMessages).where(eq(quickMessages.id, id)))[0];

describe('POST and PUT /quick-messages', () => {
  it("creates the caller's reply; the shortcode is required", async () => {
    const res = await create(ana.token, { shortcode: 'ola', message: 'Olá, {{contactName}}!' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      shortcode: 'ola',
      message: 'Olá, {{contactName}}!',
      geral: false,
      isMedia: false,
      mediaPath: null,
      userId: ana.user.id,
    });
    const missing = await create(ana.token, { message: 'sem atalho' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toContainEqual({ path: 'body.shortcode', message: 'Required' });
    const blank = await create(ana.token, { shortcode: '  ' });
    expect(blank.statusCode).toBe(400);
    const wrongType = await create(ana.token, { shortcode: 'x', geral: 'yes' });
    expect(wrongType.statusCode).toBe(400);
    const extra = await create(ana.token, { shortcode: 'x', secret: 1 });
    expect(extra.statusCode).toBe(201);
  });

  it('lets its author or an admin edit and delete a reply, not a colleague', async () => {
    const id = (await create(ana.token, { shortcode: 'preco', geral: true })).json().id;
    expect((await t.as(bia.token).put(`/quick-messages/${id}`, { message: 'x' })).statusCode).toBe(
      403,
    );
    expect((await t.as(bia.token).delete(`/quick-messages/${id}`)).statusCode).toBe(403);
    const edited = await t.as(ana.token).put(`/quick-messages/${id}`, { message: 'R$ 10' });
    expect(edited.json()).toMatchObject({ shortcode: 'preco', message: 'R$ 10' });
    const byAdmin = await t
      .as(home.adminToken)
      .put(`/quick-messages/${id}`, { shortcode: 'valor' });
    expect(byAdmin.json().shortcode).toBe('valor');
    expect((await t.as(home.adminToken).delete(`/quick-messages/${id}`)).statusCode).toBe(204);
    expect(await row(id)).toBeUndefined();
  });
});

describe('shortcodes', () => {
  it('are unique per company when shared and per author when personal, in any case', async () => {
    const fresh = await inboxCompany(t);
    const carla = await agent(t, fresh.companyId);
    const dani = await agent(t, fresh.companyId);
    const duplicated = { error: 'ERR_DUPLICATED_SHORTCODE' };

    expect((await create(fresh.adminToken, { shortcode: 'boleto', geral: true })).statusCode).toBe(
      201,
    );
    const sharedAgain = await create(carla.token, { shortcode: 'Boleto', geral: true });
    expect(sharedAgain.statusCode).toBe(409);
    expect(sharedAgain.json()).toEqual(duplicated);

    // A personal reply is its author's own name for a text: it may reuse a shared shortcode.
    const carlaOwn = await create(carla.token, { shortcode: 'boleto' });
    expect(carlaOwn.statusCode).toBe(201);
    const carlaAgain = await create(carla.token, { shortcode: 'BOLETO ' });
    expect(carlaAgain.statusCode).toBe(409);
    expect(carlaAgain.json()).toEqual(duplicated);
    expect((await create(dani.token, { shortcode: 'boleto' })).statusCode).toBe(201);
    expect((await create(other.adminToken, { shortcode: 'boleto', geral: true })).statusCode).toBe(
      201,
    );

    // Editing into a clash is refused too, and changes nothing.
    const pix = (await create(carla.token, { shortcode: 'pix', message: 'chave' })).json();
    const renamed = await t
      .as(carla.token)
      .put(`/quick-messages/${pix.id}`, { shortcode: 'boleto', message: 'outra' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toEqual(duplicated);
    expect(await row(pix.id)).toMatchObject({ shortcode: 'pix', message: 'chave' });
    const shared = await t
      .as(carla.token)
      .put(`/quick-messages/${carlaOwn.json().id}`, { geral: true });
    expect(shared.json()).toEqual(duplicated);
    expect((await row(carlaOwn.json().id))!.geral).toBe(false);
  });

  it('are decided by the database when two people save the same one at once', async () => {
    const fresh = await inboxCompany(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        create(fresh.adminToken, { shortcode: 'corrida', geral: true }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const saved = await t.database.db
      .select()
      .from(quickMessages)
      .where(eq(quickMessages.companyId, fresh.companyId));
    expect(saved.map((reply) => reply.shortcode)).toEqual(['corrida']);
  });
});

describe('GET /quick-messages, /list and /:id', () => {
  it("shows the company's shared replies and the caller's own", async () => {
    const fresh = await inboxCompany(t);
    const carla = await agent(t, fresh.companyId);
    const dani = await agent(t, fresh.companyId);
    await create(fresh.adminToken, { shortcode: 'geral1', geral: true });
    const own = (await create(carla.token, { shortcode: 'carla1' })).json();
    const hers = (await create(dani.token, { shortcode: 'dani1' })).json();
    const shortcodes = (body: { shortcode: string }[]) => body.map((q) => q.shortcode);

    expect(shortcodes((await t.as(carla.token).get('/quick-messages/list')).json())).toEqual([
      'carla1',
      'geral1',
    ]);
    const page = (await t.as(carla.token).get('/quick-messages')).json();
    expect(page).toMatchObject({ count: 2, hasMore: false });
    expect(shortcodes(page.records)).toEqual(['carla1', 'geral1']);
    const search = (await t.as(carla.token).get('/quick-messages?searchParam=ger')).json();
    expect(shortcodes(search.records)).toEqual(['geral1']);
    const admin = (await t.as(fresh.adminToken).get('/quick-messages')).json();
    expect(admin.count).toBe(3);
    const forDani = (
      await t.as(fresh.adminToken).get(`/quick-messages?userId=${dani.user.id}`)
    ).json();
    expect(shortcodes(forDani.records)).toEqual(['dani1', 'geral1']);

    expect((await t.as(carla.token).get(`/quick-messages/${own.id}`)).statusCode).toBe(200);
    expect((await t.as(carla.token).get(`/quick-messages/${hers.id}`)).statusCode).toBe(403);
  });

  it("is 404 for another company's reply, which stays", async () => {
    const theirs = (await create(other.adminToken, { shortcode: 'deles', geral: true })).json();
    expect((await t.as(home.adminToken).get(`/quick-messages/${theirs.id}`)).statusCode).toBe(404);
    expect(
      (await t.as(home.adminToken).put(`/quick-messages/${theirs.id}`, { shortcode: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await t.as(home.adminToken).delete(`/quick-messages/${theirs.id}`)).statusCode).toBe(
      404,
    );
    expect((await row(theirs.id))!.shortcode).toBe('deles');
    const list = (await t.as(home.adminToken).get('/quick-messages/list')).json();
    expect(list.map((q: { id: number }) => q.id)).not.toContain(theirs.id);
    expect((await t.app.inject({ method: 'GET', url: '/quick-messages' })).statusCode).toBe(401);
  });
});

describe('POST and DELETE /quick-messages/:id/media-upload', () => {
  it('attaches a file under a generated name, served by a signed address, and removes it', async () => {
    const id = (await create(ana.token, { shortcode: 'catalogo' })).json().id;
    const res = await postForm(
      t,
      ana.token,
      `/quick-messages/${id}/media-upload`,
      { typeArch: 'quickMessage' },
      [{ field: 'file', name: 'catálogo.png', type: 'image/png', content: PNG }],
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isMedia: true, mediaName: 'catálogo.png' });
    expect(res.json().mediaPath).toMatch(
      new RegExp(`^/media/${home.companyId}/[0-9a-f-]{36}\\.png\\?`),
    );
    const served = await t.app.inject({ method: 'GET', url: res.json().mediaPath });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const stored = (await row(id))!.mediaPath!;
    const path = t.app.platform.storage.pathOf(stored);
    expect(existsSync(path)).toBe(true);

    const removed = await t.as(ana.token).delete(`/quick-messages/${id}/media-upload`);
    expect(removed.json()).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
    expect(existsSync(path)).toBe(false);
  });

  it('keeps a recorded WebM voice note as Ogg Opus, as messages send it', async () => {
    const id = (await create(ana.token, { shortcode: 'boas-vindas' })).json().id;
    const voiceNote = readFileSync(
      fileURLToPath(new URL('../../../test/fixtures/voice-note.webm', import.meta.url)),
    );
    const res = await postForm(t, ana.token, `/quick-messages/${id}/media-upload`, {}, [
      { field: 'file', name: 'boas-vindas.webm', type: 'audio/webm', content: voiceNote },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mediaName: 'boas-vindas.ogg' });
    expect(res.json().mediaPath).toMatch(/\.ogg\?/);
    const served = await t.app.inject({ method: 'GET', url: res.json().mediaPath });
    expect(served.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
  });

  it('refuses active files, colleagues and other companies, storing nothing', async () => {
    const id = (await create(ana.token, { shortcode: 'svg' })).json().id;
    const svg = await postForm(t, ana.token, `/quick-messages/${id}/media-upload`, {}, [
      { field: 'file', name: 'x.svg', type: 'image/svg+xml', content: Buffer.from('<svg/>') },
    ]);
    expect(svg.statusCode).toBe(415);
    const colleague = await postForm(t, bia.token, `/quick-messages/${id}/media-upload`, {}, [
      { field: 'file', name: 'x.png', type: 'image/png', content: PNG },
    ]);
    expect(colleague.statusCode).toBe(403);
    const theirs = (await create(other.adminToken, { shortcode: 'deles2' })).json();
    const cross = await postForm(
      t,
      home.adminToken,
      `/quick-messages/${theirs.id}/media-upload`,
      {},
      [{ field: 'file', name: 'x.png', type: 'image/png', content: PNG }],
    );
    expect(cross.statusCode).toBe(404);
    const noFile = await postForm(t, ana.token, `/quick-messages/${id}/media-upload`, {
      typeArch: 'x',
    });
    expect(noFile.statusCode).toBe(400);
    expect((await row(id))!.mediaPath).toBeNull();
    expect((await row(theirs.id))!.mediaPath).toBeNull();
  });
});

describe('quick replies of a queue', () => {
  it("are seen by the queue's agents beside the company's and their own, not by another queue's", async () => {
    const fresh = await inboxCompany(t);
    const vendas = await t.make.queue(fresh.companyId, { name: 'Vendas' });
    const suporte = await t.make.queue(fresh.companyId, { name: 'Suporte' });
    const vera = await agent(t, fresh.companyId, { queueIds: [vendas.id] });
    const saulo = await agent(t, fresh.companyId, { queueIds: [suporte.id] });
    await create(fresh.adminToken, { shortcode: 'todos', geral: true });
    const sales = await create(fresh.adminToken, {
      shortcode: 'tabela',
      message: 'Nossa tabela de preços',
      queueId: vendas.id,
      geral: true,
    });
    expect(sales.statusCode, sales.body).toBe(201);
    // a queue's reply is the queue's, not the whole company's
    expect(sales.json()).toMatchObject({ queueId: vendas.id, geral: false });
    await create(saulo.token, { shortcode: 'saulo' });
    const shortcodes = (body: { shortcode: string }[]) => body.map((q) => q.shortcode);

    expect(shortcodes((await t.as(vera.token).get('/quick-messages/list')).json())).toEqual([
      'tabela',
      'todos',
    ]);
    expect(shortcodes((await t.as(vera.token).get('/quick-messages')).json().records)).toEqual([
      'tabela',
      'todos',
    ]);
    expect((await t.as(vera.token).get(`/quick-messages/${sales.json().id}`)).statusCode).toBe(200);

    expect(shortcodes((await t.as(saulo.token).get('/quick-messages/list')).json())).toEqual([
      'saulo',
      'todos',
    ]);
    expect(
      shortcodes((await t.as(saulo.token).get('/quick-messages?searchParam=tab')).json().records),
    ).toEqual([]);
    expect((await t.as(saulo.token).get(`/quick-messages/${sales.json().id}`)).statusCode).toBe(
      403,
    );
    // the admin's view of one agent follows that agent's queues
    const forVera = (
      await t.as(fresh.adminToken).get(`/quick-messages?userId=${vera.user.id}`)
    ).json();
    expect(shortcodes(forVera.records)).toEqual(['tabela', 'todos']);

    // moved to the other queue, it changes hands
    const moved = await t
      .as(fresh.adminToken)
      .put(`/quick-messages/${sales.json().id}`, { queueId: suporte.id });
    expect(moved.json()).toMatchObject({ queueId: suporte.id, geral: false });
    expect(shortcodes((await t.as(vera.token).get('/quick-messages/list')).json())).toEqual([
      'todos',
    ]);
    expect(shortcodes((await t.as(saulo.token).get('/quick-messages/list')).json())).toEqual([
      'saulo',
      'tabela',
      'todos',
    ]);
    // and made the company's again, it leaves the queue
    const shared = await t
      .as(fresh.adminToken)
      .put(`/quick-messages/${sales.json().id}`, { queueId: null, geral: true });
    expect(shared.json()).toMatchObject({ queueId: null, geral: true });
  });

  it('name a queue of the company, an agent only one of theirs; a shortcode once per queue', async () => {
    const fresh = await inboxCompany(t);
    const vendas = await t.make.queue(fresh.companyId);
    const suporte = await t.make.queue(fresh.companyId);
    const theirs = await t.make.queue(other.companyId);
    const vera = await agent(t, fresh.companyId, { queueIds: [vendas.id] });

    const foreign = await create(fresh.adminToken, { shortcode: 'x', queueId: theirs.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields).toContainEqual({
      path: 'body.queueId',
      message: 'No such queue',
    });
    expect((await create(vera.token, { shortcode: 'y', queueId: suporte.id })).statusCode).toBe(
      403,
    );
    const mine = await create(vera.token, { shortcode: 'oi', queueId: vendas.id });
    expect(mine.statusCode, mine.body).toBe(201);
    const again = await create(fresh.adminToken, { shortcode: 'OI', queueId: vendas.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_DUPLICATED_SHORTCODE' });
    // the same shortcode in another queue, or as the admin's own, is another reply
    expect(
      (await create(fresh.adminToken, { shortcode: 'oi', queueId: suporte.id })).statusCode,
    ).toBe(201);
    expect((await create(fresh.adminToken, { shortcode: 'oi' })).statusCode).toBe(201);
    // the original client's empty select is none
    expect((await create(fresh.adminToken, { shortcode: 'z', queueId: '' })).json().queueId).toBe(
      null,
    );
    // another company's agents never see the queue's reply
    const outsider = (await t.as(other.adminToken).get('/quick-messages/list')).json();
    expect(outsider.map((q: { id: number }) => q.id)).not.toContain(mine.json().id);
    expect((await t.as(other.adminToken).get(`/quick-messages/${mine.json().id}`)).statusCode).toBe(
      404,
    );
  });

  it('go with their queue when it is deleted', async () => {
    const fresh = await inboxCompany(t);
    const queue = await t.make.queue(fresh.companyId);
    const reply = (await create(fresh.adminToken, { shortcode: 'fila', queueId: queue.id })).json();
    expect((await t.as(fresh.adminToken).delete(`/queue/${queue.id}`)).statusCode).toBeLessThan(
      300,
    );
    expect(await row(reply.id)).toBeUndefined();
  });
});
