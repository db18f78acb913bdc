import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeWhatsAppWeb,
  phoneMessage,
  revokeUpdate,
  textContent,
} from '../../../test/fakes/whatsapp-web';
import { startTestServer, type TestServer } from '../../../test/harness';
import { connections, inboundSpool, messages } from '../../db/schema';

/**
 * WhatsApp Web takes a message as delivered once Baileys has it, whatever the server does next.
 * So what it delivers is spooled in PostgreSQL first and stored until it commits: a store that
 * fails is tried again (the later messages of its chat wait, other chats go on), and what a
 * stop interrupts is stored by the next session. The failures here are real ones: a constraint
 * the database enforces refuses the message until it is dropped.
 */

const fake = new FakeWhatsAppWeb();
let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer({}, undefined, {
    channels: {
      baileys: {
        createSocket: fake.createSocket,
        retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40 },
        inbox: { baseDelayMs: 20, maxDelayMs: 150, maxBuffered: 5 },
      },
    },
  });
  const plan = await t.make.plan({ connections: 10 });
  const { admin } = await t.make.company({ planId: plan.id });
  token = (await t.login(admin.email)).token;
});
afterEach(() => unblock());
afterAll(async () => {
  await t?.stop();
  await fake.close();
});

/** The database refuses to store messages with this text until unblocked. */
const block = (text: string) =>
  t.database.pool.query(
    `alter table messages add constraint refuse_for_test check (body <> '${text}') not valid`,
  );
const unblock = () =>
  t.database.pool.query('alter table messages drop constraint if exists refuse_for_test');

const statusOf = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!.status;

let names = 0;
async function connected(phone: string) {
  const created = await t.as(token).post('/whatsapp', { name: `Web ${++names}`, provider: 'beta' });
  const id = created.json().id as number;
  await t.as(token).post(`/whatsappsession/${id}`);
  await expect.poll(() => statusOf(id)).toBe('qrcode');
  fake.scan(id, phone);
  await expect.poll(() => statusOf(id)).toBe('CONNECTED');
  return id;
}

const stored = (id: number) =>
  t.database.db
    .select({ body: messages.body, providerMessageId: messages.providerMessageId })
    .from(messages)
    .where(eq(messages.connectionId, id))
    .orderBy(asc(messages.id));
const bodies = async (id: number) => (await stored(id)).map((row) => row.body);
const spooled = async (id: number) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(inboundSpool)
      .where(eq(inboundSpool.connectionId, id))
  )[0]!.n;

describe('WhatsApp Web inbound durability', () => {
  it('tries a failed store again until it commits; its chat waits for it, other chats go on', async () => {
    const id = await connected('5511922220001');
    await block('bloqueada');
    const maria = '5511977771001';
    const joao = '5511977771002';
    fake.receive(
      id,
      phoneMessage({ phone: maria, content: textContent('bloqueada') }),
      phoneMessage({ phone: maria, content: textContent('depois dela') }),
      phoneMessage({ phone: joao, content: textContent('outra conversa') }),
    );
    await expect.poll(() => bodies(id)).toEqual(['outra conversa']);
    // Several attempts later, nothing of Maria's chat has overtaken the failing message.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await bodies(id)).toEqual(['outra conversa']);
    expect(await spooled(id)).toBe(2);

    await unblock();
    await expect.poll(() => bodies(id)).toEqual(['outra conversa', 'bloqueada', 'depois dela']);
    await expect.poll(() => spooled(id)).toBe(0);
  });

  it('keeps what a stop interrupted in the spool, and the next session stores it once', async () => {
    const id = await connected('5511922220002');
    await block('interrompida');
    const phone = '5511977771003';
    const message = phoneMessage({ phone, content: textContent('interrompida') });
    fake.receive(id, message);
    await expect.poll(() => spooled(id)).toBe(1);
    // The instance lets the connection go (a restart, a lost lease) before the store succeeded.
    await t.app.channelManager.command({ connectionId: id, action: 'stop' });
    expect(t.app.channels.isRunningHere(id)).toBe(false);
    expect(await spooled(id)).toBe(1);
    expect(await bodies(id)).toEqual([]);

    await unblock();
    await t.as(token).post(`/whatsappsession/${id}`);
    await expect.poll(() => bodies(id)).toEqual(['interrompida']);
    await expect.poll(() => spooled(id)).toBe(0);
    // WhatsApp delivering it again (it may, after a reconnect) stores nothing twice.
    fake.receive(id, message);
    const marker = phoneMessage({ phone, content: textContent('marcador') });
    fake.receive(id, marker);
    await expect.poll(() => bodies(id)).toEqual(['interrompida', 'marcador']);
  });

  it('spools deletions too, applied after the message they delete', async () => {
    const id = await connected('5511922220003');
    await block('apagada depois');
    const phone = '5511977771004';
    const message = phoneMessage({ phone, content: textContent('apagada depois') });
    fake.receive(id, message);
    fake.update(id, revokeUpdate(message.key));
    await expect.poll(() => spooled(id)).toBe(2);
    await unblock();
    const row = async () =>
      (
        await t.database.db
          .select({ isDeleted: messages.isDeleted })
          .from(messages)
          .where(
            and(eq(messages.connectionId, id), eq(messages.providerMessageId, message.key.id!)),
          )
      )[0];
    await expect.poll(row).toEqual({ isDeleted: true });
    await expect.poll(() => spooled(id)).toBe(0);
  });

  it('pauses WhatsApp Web while the spool cannot be written, and takes everything once it can', async () => {
    const id = await connected('5511922220004');
    // The spool refuses messages: the database is there but cannot take them.
    await t.database.pool.query(
      `alter table inbound_spool add constraint refuse_spool_for_test check (kind <> 'message') not valid`,
    );
    try {
      const phone = '5511977771005';
      const socket = fake.socket(id);
      for (let n = 1; n <= 5; n++) {
        fake.receive(id, phoneMessage({ phone, content: textContent(`retida ${n}`) }));
      }
      // Past its limit the session lets go of the socket: WhatsApp keeps what follows.
      await expect.poll(() => socket.closed).toBe(true);
      expect(await bodies(id)).toEqual([]);
    } finally {
      await t.database.pool.query(
        'alter table inbound_spool drop constraint if exists refuse_spool_for_test',
      );
    }
    await expect.poll(() => bodies(id)).toEqual([1, 2, 3, 4, 5].map((n) => `retida ${n}`));
    // And it is back on a new socket.
    await expect.poll(() => fake.socket(id).closed).toBe(false);
    await expect.poll(() => statusOf(id)).toBe('CONNECTED');
  });
});
