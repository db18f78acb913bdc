import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  closeSockets,
  pairedSimulator,
  phoneWrites,
  postForm,
  socketFor,
} from '../../../test/inbox';

/**
 * `company-{id}-contact` through real sockets: a new contact is announced as `create` however
 * it arrives (the form, an import, a first message from the phone), a change as `update`, a
 * removal as `delete`, and only to its own company.
 */

interface ContactEvent {
  action: string;
  contact?: { id: number; name: string; number: string };
  contactId?: number;
}

let t: TestServer;
let companyId: number;
let adminToken: string;
let socket: Socket;
let otherSocket: Socket;
const heard: ContactEvent[] = [];
const otherHeard: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  const home = await t.make.company();
  const other = await t.make.company();
  companyId = home.company.id;
  adminToken = (await t.login(home.admin.email)).token;
  socket = await socketFor(t, adminToken);
  socket.on(`company-${companyId}-contact`, (payload: ContactEvent) => heard.push(payload));
  otherSocket = await socketFor(t, (await t.login(other.admin.email)).token);
  otherSocket.onAny((event: string) => otherHeard.push(event));
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
});

/** The events heard about one number so far. */
const about = (number: string) =>
  heard.filter((event) => event.contact?.number === number).map((event) => event.action);

describe('company-{id}-contact', () => {
  it('announces a contact made with the form as create, its edit as update, its removal as delete', async () => {
    const created = await t
      .as(adminToken)
      .post('/contacts', { name: 'Maria Nova', number: '5511955550001' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await expect.poll(() => about('5511955550001')).toEqual(['create']);
    expect(heard.find((event) => event.contact?.id === id)?.contact).toMatchObject({
      id,
      name: 'Maria Nova',
    });

    expect((await t.as(adminToken).put(`/contacts/${id}`, { name: 'Maria Edit' })).statusCode).toBe(
      200,
    );
    await expect.poll(() => about('5511955550001')).toEqual(['create', 'update']);

    expect((await t.as(adminToken).delete(`/contacts/${id}`)).statusCode).toBe(204);
    await expect
      .poll(() => heard.some((event) => event.action === 'delete' && event.contactId === id))
      .toBe(true);
  });

  it('announces each contact an import adds as create, and none it skips', async () => {
    await t.as(adminToken).post('/contacts', { name: 'Já Existe', number: '5511955550010' });
    await expect.poll(() => about('5511955550010')).toEqual(['create']);
    const csv =
      'name;number;email\nImport Um;5511955550011;\nImport Dois;5511955550012;\nJá Existe;5511955550010;\n';
    const imported = await postForm(t, adminToken, '/contacts/import', {}, [
      { field: 'file', name: 'contatos.csv', type: 'text/csv', content: Buffer.from(csv) },
    ]);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({ imported: 2, skipped: 1 });
    await expect.poll(() => about('5511955550011')).toEqual(['create']);
    await expect.poll(() => about('5511955550012')).toEqual(['create']);
    expect(about('5511955550010')).toEqual(['create']);
  });

  it('announces a contact first met through a message from the phone as create, once', async () => {
    const connectionId = await pairedSimulator(t, adminToken);
    await phoneWrites(t, adminToken, connectionId, '5511955550020', 'primeira mensagem', 'Pedro');
    // First `create`; the picture fetched for a new contact may follow as an `update`.
    await expect.poll(() => about('5511955550020')[0]).toBe('create');
    expect(heard.find((event) => event.contact?.number === '5511955550020')?.contact).toMatchObject(
      { name: 'Pedro' },
    );
    const messages: string[] = [];
    socket.on(`company-${companyId}-appMessage`, (payload: { message: { body: string } }) =>
      messages.push(payload.message.body),
    );
    await phoneWrites(t, adminToken, connectionId, '5511955550020', 'segunda mensagem', 'Pedro');
    // The contact is told before its message; once the message is heard, nothing new was.
    await expect.poll(() => messages).toContain('segunda mensagem');
    expect(about('5511955550020').filter((action) => action === 'create')).toHaveLength(1);
    expect(otherHeard.filter((event) => event.startsWith(`company-${companyId}-`))).toEqual([]);
  });
});
