import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { closeSockets, socketFor } from '../../../test/inbox';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

/** A company with its admin and a plain user signed in, and one queue. */
async function tenant() {
  const { company, admin } = await t.make.company();
  const user = await t.make.user(company.id);
  const [a, u] = await Promise.all([t.login(admin.email), t.login(user.email)]);
  const queue = await t.make.queue(company.id);
  return { company, queue, adminToken: a.token, asAdmin: t.as(a.token), asUser: t.as(u.token) };
}

type Api = ReturnType<TestServer['as']>;

async function add(as: Api, body: Record<string, unknown>) {
  const response = await as.post('/queue-options', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; option: string; children: { id: number }[] };
}

async function optionIds() {
  const { rows } = await t.database.db.execute<{ id: number }>(
    sql`select id from queue_options order by id`,
  );
  return rows.map((row) => row.id);
}

const optionShape = {
  id: expect.any(Number),
  title: expect.any(String),
  message: expect.any(String),
  option: expect.any(String),
  queueId: expect.any(Number),
  parentId: null,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
};

describe('/queue-options', () => {
  it('builds a menu three levels deep and answers each level with its children, in menu order', async () => {
    const { queue, asAdmin } = await tenant();
    const sales = await add(asAdmin, {
      queueId: queue.id,
      title: 'Vendas',
      message: 'Escolha o produto',
      option: 1,
    });
    expect(sales).toEqual({
      ...optionShape,
      id: sales.id,
      title: 'Vendas',
      message: 'Escolha o produto',
      option: '1',
      queueId: queue.id,
      children: [],
    });
    // '10' after '2': numbers, not texts; the original client's parentId null is the root.
    const tenth = await add(asAdmin, {
      queueId: queue.id,
      parentId: null,
      title: 'Outros',
      option: '10',
    });
    const support = await add(asAdmin, { queueId: queue.id, title: 'Suporte', option: '2' });
    const phones = await add(asAdmin, {
      queueId: queue.id,
      parentId: sales.id,
      title: 'Telefones',
      option: '2',
    });
    const laptops = await add(asAdmin, {
      queueId: queue.id,
      parentId: sales.id,
      title: 'Notebooks',
      option: '1',
    });
    const deep = await add(asAdmin, {
      queueId: queue.id,
      parentId: phones.id,
      title: 'Android',
      option: '1',
    });

    for (const root of ['', '&parentId=-1', '&parentId=null']) {
      const response = await asAdmin.get(`/queue-options?queueId=${queue.id}${root}`);
      expect(response.statusCode, root).toBe(200);
      const level = response.json() as { id: number; children: { id: number }[] }[];
      expect(level.map((option) => option.id)).toEqual([sales.id, support.id, tenth.id]);
      expect(level[0]!.children.map((child) => child.id)).toEqual([laptops.id, phones.id]);
      expect(level[1]!.children).toEqual([]);
    }
    const children = (
      await asAdmin.get(`/queue-options?queueId=${queue.id}&parentId=${sales.id}`)
    ).json();
    expect(children.map((option: { title: string }) => option.title)).toEqual([
      'Notebooks',
      'Telefones',
    ]);
    expect(children[1]).toMatchObject({
      parentId: sales.id,
      children: [{ ...optionShape, id: deep.id, title: 'Android', parentId: phones.id }],
    });
  });

  it("refuses a number a sibling has (409 body.option), not a cousin's", async () => {
    const { queue, asAdmin } = await tenant();
    const first = await add(asAdmin, { queueId: queue.id, title: 'Um', option: '1' });
    const second = await add(asAdmin, { queueId: queue.id, title: 'Dois', option: '2' });
    for (const option of ['1', '01', 1]) {
      const response = await asAdmin.post('/queue-options', {
        queueId: queue.id,
        title: 'X',
        option,
      });
      expect(response.statusCode, String(option)).toBe(409);
      expect(response.json()).toEqual({
        error: 'ERR_VALIDATION',
        fields: [{ path: 'body.option', message: 'Duplicated' }],
      });
    }
    // The same number one level down is another menu.
    await add(asAdmin, { queueId: queue.id, parentId: first.id, title: 'Sub', option: '1' });
    // An edit to a sibling's number is refused too; keeping its own is not a duplicate.
    const taken = await asAdmin.put(`/queue-options/${second.id}`, { option: '1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual([{ path: 'body.option', message: 'Duplicated' }]);
    const same = await asAdmin.put(`/queue-options/${second.id}`, { option: '2', title: 'Dois!' });
    expect(same.statusCode).toBe(200);
    // Two creations of one number at once: one of them.
    const racing = await Promise.all([
      asAdmin.post('/queue-options', { queueId: queue.id, title: 'A', option: '7' }),
      asAdmin.post('/queue-options', { queueId: queue.id, title: 'B', option: '7' }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('validates title, message and option, and refuses a parent of another queue', async () => {
    const { company, queue, asAdmin } = await tenant();
    const otherQueue = await t.make.queue(company.id);
    const foreignParent = await add(asAdmin, { queueId: otherQueue.id, title: 'Lá', option: '1' });
    const before = await optionIds();
    const cases: [Record<string, unknown>, string, number][] = [
      [{ title: '' }, 'body.title', 400],
      [{ title: undefined }, 'body.title', 400],
      [{ title: 't'.repeat(101) }, 'body.title', 400],
      [{ message: 'm'.repeat(10_001) }, 'body.message', 400],
      [{ option: '' }, 'body.option', 400],
      [{ option: 'a1' }, 'body.option', 400],
      [{ option: '12345678901' }, 'body.option', 400],
      [{ option: -1 }, 'body.option', 400],
      [{ option: undefined }, 'body.option', 400],
      [{ queueId: undefined }, 'body.queueId', 400],
      [{ queueId: 999_999 }, 'body.queueId', 400],
      [{ parentId: 999_999 }, 'body.parentId', 400],
      [{ parentId: foreignParent.id }, 'body.parentId', 400],
    ];
    for (const [overrides, path, status] of cases) {
      const body = { queueId: queue.id, title: 'Opção', option: '3', ...overrides };
      const response = await asAdmin.post('/queue-options', body);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(status);
      expect(response.json().error).toBe('ERR_VALIDATION');
      expect(
        response.json().fields.map((field: { path: string }) => field.path),
        JSON.stringify(overrides),
      ).toContain(path);
    }
    expect(await optionIds()).toEqual(before);
    // The bounds themselves are accepted.
    await add(asAdmin, {
      queueId: queue.id,
      title: 't'.repeat(100),
      message: 'm'.repeat(10_000),
      option: '1234567890',
    });
  });

  it('changes texts and number but never the queue or the parent', async () => {
    const { company, queue, asAdmin } = await tenant();
    const otherQueue = await t.make.queue(company.id);
    const root = await add(asAdmin, { queueId: queue.id, title: 'Raiz', option: '1' });
    const child = await add(asAdmin, {
      queueId: queue.id,
      parentId: root.id,
      title: 'Filho',
      option: '1',
    });
    const response = await asAdmin.put(`/queue-options/${child.id}`, {
      ...child,
      title: 'Filho editado',
      message: 'Nova mensagem',
      option: 5,
      queueId: otherQueue.id,
      parentId: null,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: child.id,
      title: 'Filho editado',
      message: 'Nova mensagem',
      option: '5',
      queueId: queue.id,
      parentId: root.id,
    });
    const bad = await asAdmin.put(`/queue-options/${child.id}`, { option: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('deletes an option with its whole subtree', async () => {
    const { queue, asAdmin } = await tenant();
    const root = await add(asAdmin, { queueId: queue.id, title: 'Raiz', option: '1' });
    const keep = await add(asAdmin, { queueId: queue.id, title: 'Fica', option: '2' });
    const child = await add(asAdmin, {
      queueId: queue.id,
      parentId: root.id,
      title: 'Filho',
      option: '1',
    });
    const grandchild = await add(asAdmin, {
      queueId: queue.id,
      parentId: child.id,
      title: 'Neto',
      option: '1',
    });
    expect((await asAdmin.delete(`/queue-options/${root.id}`)).statusCode).toBe(204);
    const left = await optionIds();
    expect(left).toContain(keep.id);
    for (const gone of [root.id, child.id, grandchild.id]) expect(left).not.toContain(gone);
    expect((await asAdmin.delete(`/queue-options/${root.id}`)).statusCode).toBe(404);
    const level = (await asAdmin.get(`/queue-options?queueId=${queue.id}`)).json();
    expect(level.map((option: { id: number }) => option.id)).toEqual([keep.id]);
    // Deleting the queue takes its menu with it.
    expect((await asAdmin.delete(`/queue/${queue.id}`)).statusCode).toBe(204);
    expect(await optionIds()).not.toContain(keep.id);
  });

  it("keeps companies apart: another company's queue, option and parent answer 404 or 400", async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const option = await add(theirs.asAdmin, {
      queueId: theirs.queue.id,
      title: 'Deles',
      option: '1',
    });
    const before = await optionIds();
    const list = await mine.asAdmin.get(`/queue-options?queueId=${theirs.queue.id}`);
    expect(list.statusCode).toBe(404);
    const children = await mine.asAdmin.get(
      `/queue-options?queueId=${mine.queue.id}&parentId=${option.id}`,
    );
    expect(children.statusCode).toBe(404);
    const intoTheirs = await mine.asAdmin.post('/queue-options', {
      queueId: theirs.queue.id,
      title: 'Intruso',
      option: '2',
    });
    expect(intoTheirs.statusCode).toBe(400);
    expect(intoTheirs.json().fields[0].path).toBe('body.queueId');
    const underTheirs = await mine.asAdmin.post('/queue-options', {
      queueId: mine.queue.id,
      parentId: option.id,
      title: 'Intruso',
      option: '2',
    });
    expect(underTheirs.statusCode).toBe(400);
    expect(underTheirs.json().fields[0].path).toBe('body.parentId');
    const edit = await mine.asAdmin.put(`/queue-options/${option.id}`, { title: 'Meu' });
    expect(edit.statusCode).toBe(404);
    expect((await mine.asAdmin.delete(`/queue-options/${option.id}`)).statusCode).toBe(404);
    expect(await optionIds()).toEqual(before);
    const still = (await theirs.asAdmin.get(`/queue-options?queueId=${theirs.queue.id}`)).json();
    expect(still).toMatchObject([{ id: option.id, title: 'Deles' }]);
    expect(t.emitted.some((event) => event.event === `company-${mine.company.id}-queue`)).toBe(
      false,
    );
  });

  it('answers 401 without a token and 403 to a user without queues:manage, changing nothing', async () => {
    const { queue, asAdmin, asUser } = await tenant();
    const option = await add(asAdmin, { queueId: queue.id, title: 'Raiz', option: '1' });
    const before = await optionIds();
    const calls: [string, string, unknown?][] = [
      ['GET', `/queue-options?queueId=${queue.id}`],
      ['POST', '/queue-options', { queueId: queue.id, title: 'Nova', option: '2' }],
      ['PUT', `/queue-options/${option.id}`, { title: 'Mudou' }],
      ['DELETE', `/queue-options/${option.id}`],
    ];
    for (const [method, url, payload] of calls) {
      const anonymous = await t.app.inject({
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const response =
        method === 'GET'
          ? await asUser.get(url)
          : method === 'POST'
            ? await asUser.post(url, payload)
            : method === 'PUT'
              ? await asUser.put(url, payload)
              : await asUser.delete(url);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await optionIds()).toEqual(before);
  });

  it("announces every change as the queue's update on a real socket, to its company only", async () => {
    const mine = await tenant();
    const other = await tenant();
    const heard: { action: string; queue?: { id: number } }[] = [];
    const otherHeard: string[] = [];
    const socket: Socket = await socketFor(t, mine.adminToken);
    socket.on(`company-${mine.company.id}-queue`, (payload) => heard.push(payload));
    const otherSocket = await socketFor(t, other.adminToken);
    otherSocket.onAny((event: string) => otherHeard.push(event));
    // the whole queue, as its users read it (no token)
    const expected = {
      action: 'update',
      queue: expect.objectContaining({ id: mine.queue.id, name: mine.queue.name }),
    };

    const option = await add(mine.asAdmin, { queueId: mine.queue.id, title: 'Raiz', option: '1' });
    await expect.poll(() => heard).toEqual([expected]);
    await mine.asAdmin.put(`/queue-options/${option.id}`, { title: 'Raiz 2' });
    await expect.poll(() => heard).toEqual([expected, expected]);
    await mine.asAdmin.delete(`/queue-options/${option.id}`);
    await expect.poll(() => heard).toEqual([expected, expected, expected]);
    // A refused change announces nothing.
    await mine.asAdmin.post('/queue-options', { queueId: mine.queue.id, title: '', option: '1' });
    await mine.asAdmin.get(`/queue-options?queueId=${mine.queue.id}`);
    // Another company's own change is heard there, and was never heard here.
    await add(other.asAdmin, { queueId: other.queue.id, title: 'Deles', option: '1' });
    await expect.poll(() => otherHeard).toContain(`company-${other.company.id}-queue`);
    expect(heard).toHaveLength(3);
    expect(otherHeard).not.toContain(`company-${mine.company.id}-queue`);
  });
});
