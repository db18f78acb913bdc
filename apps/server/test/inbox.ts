import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import {
  connections,
  contacts,
  messages,
  settings,
  tags,
  tickets,
  ticketTags,
} from '../src/db/schema';
import { TenantDb } from '../src/db/tenant';
import type { TestServer } from './harness';

let sequence = 0;
const next = () => `${process.pid}${++sequence}`;

/** Inbox rows in one line each, straight into the database (tests only). */
export function inboxFactories(t: TestServer) {
  const tenant = (companyId: number) => new TenantDb(t.database.db, companyId);
  const make = {
    async connection(
      companyId: number,
      overrides: Partial<Omit<typeof connections.$inferInsert, 'companyId'>> = {},
    ) {
      const [row] = await tenant(companyId)
        .insert(connections, {
          name: `Connection ${next()}`,
          provider: 'simulator',
          isDefault: true,
          ...overrides,
        })
        .returning();
      return row!;
    },

    async contact(
      companyId: number,
      overrides: Partial<Omit<typeof contacts.$inferInsert, 'companyId'>> = {},
    ) {
      const [row] = await tenant(companyId)
        .insert(contacts, {
          name: `Contact ${next()}`,
          number: `5511${String(9_000_000_00 + sequence * 7919).padStart(9, '0')}${sequence % 10}`,
          ...overrides,
        })
        .returning();
      return row!;
    },

    /** A ticket (and a contact for it unless one is given). */
    async ticket(
      companyId: number,
      overrides: Partial<Omit<typeof tickets.$inferInsert, 'companyId'>> = {},
    ) {
      const contactId = overrides.contactId ?? (await make.contact(companyId)).id;
      const [row] = await tenant(companyId)
        .insert(tickets, { status: 'pending', ...overrides, contactId })
        .returning();
      return row!;
    },

    async message(
      companyId: number,
      ticketId: number,
      overrides: Partial<Omit<typeof messages.$inferInsert, 'companyId' | 'ticketId'>> = {},
    ) {
      const [row] = await tenant(companyId)
        .insert(messages, { ticketId, body: `Message ${next()}`, ...overrides })
        .returning();
      return row!;
    },

    async tag(
      companyId: number,
      overrides: Partial<Omit<typeof tags.$inferInsert, 'companyId'>> = {},
    ) {
      const [row] = await tenant(companyId)
        .insert(tags, { name: `Tag ${next()}`, ...overrides })
        .returning();
      return row!;
    },

    async tagTicket(companyId: number, ticketId: number, tagId: number) {
      await tenant(companyId).insert(ticketTags, { ticketId, tagId });
    },

    async setting(companyId: number, key: string, value: string) {
      await tenant(companyId)
        .insert(settings, { key, value })
        .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value } });
    },
  };
  return make;
}

/** A company with an admin, a connection and tokens: the usual cast of an inbox test. */
export async function inboxCompany(t: TestServer) {
  const make = inboxFactories(t);
  const { company, admin } = await t.make.company();
  const connection = await make.connection(company.id);
  const adminToken = (await t.login(admin.email)).token;
  return { company, companyId: company.id, admin, adminToken, connection };
}

/** A Cloud API connection as an admin creates it with its settings, its session started. */
export async function cloudApiConnection(
  t: TestServer,
  token: string,
  cloudApi: { phoneNumberId: string; accessToken: string; appSecret: string; verifyToken: string },
  name = 'Cloud API',
): Promise<number> {
  const created = await t.as(token).post('/whatsapp', { name, provider: 'cloud-api', cloudApi });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  expect((await t.as(token).post(`/whatsappsession/${id}`)).statusCode).toBe(200);
  return id;
}

/** A user of the given queues, signed in. */
export async function agent(
  t: TestServer,
  companyId: number,
  overrides: Parameters<TestServer['make']['user']>[1] = {},
) {
  const user = await t.make.user(companyId, overrides);
  return { user, token: (await t.login(user.email)).token };
}

const sockets: Socket[] = [];

export function socketFor(t: TestServer, token: string): Promise<Socket> {
  const socket = connect(t.url, {
    query: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export function closeSockets() {
  for (const socket of sockets.splice(0)) socket.disconnect();
}

export const joinChatBox = (socket: Socket, ticketId: number) =>
  socket.timeout(2000).emitWithAck('joinChatBox', ticketId) as Promise<{ ok: boolean }>;

/** Payloads of one company event recorded by the harness. */
export const emittedOf = (t: TestServer, event: string) =>
  t.emitted.filter((e) => e.event === event).map((e) => e.payload as Record<string, unknown>);

export interface FormFile {
  field: string;
  name: string;
  type: string;
  content: Buffer;
}

/** A multipart/form-data body for app.inject. */
export function form(fields: Record<string, string>, files: FormFile[] = []) {
  const boundary = `----atendi${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A form's parts in the order given: fields may repeat and come between files. */
export function formParts(parts: ({ field: string; value: string } | FormFile)[]) {
  const boundary = `----atendi${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        ),
      );
      continue;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.name}"\r\nContent-Type: ${part.type}\r\n\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Sends a form as `token`. */
export function postForm(
  t: TestServer,
  token: string,
  url: string,
  fields: Record<string, string>,
  files: FormFile[] = [],
) {
  const body = form(fields, files);
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${token}` },
  });
}

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A simulator connection created through the API, started and paired by "scanning" its QR. */
export async function pairedSimulator(t: TestServer, token: string, name = 'Simulador') {
  const created = await t.as(token).post('/whatsapp', { name, provider: 'simulator' });
  if (created.statusCode !== 201) throw new Error(`connection: ${created.body}`);
  const id = created.json().id as number;
  const status = async () => (await t.as(token).get(`/whatsapp/${id}`)).json();
  await t.as(token).post(`/whatsappsession/${id}`);
  const deadline = Date.now() + 10_000;
  let current = await status();
  while (current.status !== 'qrcode' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = await status();
  }
  await t.as(token).post(`/simulator/connections/${id}/scan`, { qrcode: current.qrcode });
  while (current.status !== 'CONNECTED' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = await status();
  }
  if (current.status !== 'CONNECTED') throw new Error('simulator did not connect');
  return id;
}

/** What a simulated phone received from the connection. */
export async function phoneInbox(
  t: TestServer,
  token: string,
  connectionId: number,
  phone: string,
) {
  const res = await t
    .as(token)
    .get(`/simulator/connections/${connectionId}/phones/${phone}/messages`);
  return (
    res.json() as {
      direction: string;
      body: string;
      kind: string;
      isDeleted: boolean;
      providerMessageId: string;
    }[]
  ).filter((m) => m.direction === 'outbound');
}

/**
 * A simulated phone writes `body` to the connection; resolves once the inbound pipeline stored
 * it (bodies are unique within a test).
 */
export async function phoneWrites(
  t: TestServer,
  token: string,
  connectionId: number,
  phone: string,
  body: string,
  name?: string,
) {
  const sent = await t
    .as(token)
    .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
      ...(name ? { name } : {}),
      body,
    });
  if (sent.statusCode !== 201) throw new Error(`phone could not write: ${sent.body}`);
  await expect
    .poll(
      async () =>
        (await t.database.db.select().from(messages).where(eq(messages.body, body))).length,
    )
    .toBe(1);
}
