import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudApiProvider } from '../src/channels/cloud-api/cloud-api.provider';
import { messages } from '../src/db/schema';
import {
  FakeGraphApi,
  messageWebhook,
  postWebhook,
  wamid,
  webhookPayload,
} from './fakes/graph-api';
import { startTestServer, type TestServer } from './harness';
import { closeSockets, cloudApiConnection, socketFor } from './inbox';
import { quiet, type Statement, statementsOf } from './statements';

/**
 * What one inbound message costs the database, counted rather than timed: a Cloud API webhook
 * over HTTP as Meta sends it, in the common case (a known contact writing in its live ticket, a
 * company with no bot, campaign or integration touching that ticket), and everything that
 * follows it until the server is quiet again (the realtime emission, the bots', campaigns' and
 * integrations' listeners). A statement added to that path fails here, so it is added on purpose.
 */

/** The business number's settings, as an admin types them. */
const cloud = {
  phoneNumberId: '204060809001',
  accessToken: 'EAAGstatementcounttoken0123456789',
  appSecret: 'statement-count-secret',
  verifyToken: 'statement-count-verify',
};

let t: TestServer;
let graph: FakeGraphApi;
let connectionId: number;
let companyId: number;
let admin: Socket;
const heard: string[] = [];

beforeAll(async () => {
  graph = await FakeGraphApi.start();
  graph.addNumber(cloud.phoneNumberId, cloud.accessToken);
  // Nothing periodic may fall inside a counted window: the lease sweep and the connection's
  // health check wait.
  t = await startTestServer(graph.env, undefined, {
    channels: {
      manager: { sweepMs: 24 * 3_600_000 },
      cloudApi: { healthCheckMs: 24 * 3_600_000 },
    },
  });
  const made = await t.make.company();
  companyId = made.company.id;
  const token = (await t.login(made.admin.email)).token;
  connectionId = await cloudApiConnection(t, token, cloud);
  admin = await socketFor(t, token);
  admin.on(`company-${companyId}-appMessage`, (payload: { message: { body: string } }) =>
    heard.push(payload.message.body),
  );
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
  await graph?.close();
});

/** A phone's text message as Meta posts it; answered 200 once stored. */
async function send(phone: string, body: string) {
  const { payload } = messageWebhook(
    cloud.phoneNumberId,
    { phone, name: 'Cliente' },
    { type: 'text', text: { body } },
  );
  await post(payload);
}

async function post(payload: Parameters<typeof postWebhook>[3]) {
  const answer = await postWebhook(t.url, connectionId, cloud.appSecret, payload);
  expect(answer.status, await answer.text()).toBe(200);
}

/** One webhook carrying text messages of several phones, in order, as Meta may batch them. */
function batched(sent: { phone: string; body: string }[]) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return webhookPayload(cloud.phoneNumberId, {
    contacts: [...new Set(sent.map((m) => m.phone))].map((phone) => ({
      wa_id: phone,
      profile: { name: 'Cliente' },
    })),
    messages: sent.map(({ phone, body }) => ({
      id: wamid(),
      from: phone,
      timestamp,
      type: 'text',
      text: { body },
    })),
  });
}

/** The connection's stored messages. */
async function stored(): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    'select count(*)::int as n from messages where connection_id = $1',
    [connectionId],
  );
  return rows[0]!.n;
}

/** The statements of `work` and of all that follows it, by name (or first words). */
async function counted(work: () => Promise<unknown>): Promise<string[]> {
  const jobs = t.app.platform.jobs;
  const sendJob = jobs.send.bind(jobs);
  const jobsSent: string[] = [];
  jobs.send = ((name: string, ...rest: unknown[]) => {
    jobsSent.push(name);
    return (sendJob as (...args: unknown[]) => Promise<unknown>)(name, ...rest);
  }) as typeof jobs.send;
  try {
    const statements = await statementsOf(t.database.pool, async (seen) => {
      await work();
      await quiet(seen);
    });
    // A job sent is a round trip too (the job engine's own, not the pool's `query`).
    return [...statements.map(label), ...jobsSent.map((name) => `job ${name}`)];
  } finally {
    jobs.send = sendJob;
  }
}

const label = (statement: Statement) =>
  statement.name ?? statement.text.replace(/\s+/g, ' ').trim().slice(0, 60);

describe('inbound messages', () => {
  it('one at a time cost two statements: the webhook’s connection, and the store that answers its events', async () => {
    const phone = '5511955550001';
    // The phone's first message makes its contact and ticket (and reads the contact it made, to
    // announce it); its picture is asked for once.
    await counted(async () => {
      await send(phone, 'primeira');
      await expect.poll(() => heard).toContain('primeira');
    });

    const statements = await counted(async () => {
      await send(phone, 'segunda');
      await expect.poll(() => heard).toContain('segunda');
    });
    expect(statements).toEqual(['channel_connection_with_key_v1', 'store_inbound_messages_v1']);
  });

  it('of several phones arriving together cost one store for all of them, and one read of their connection', async () => {
    const phones = ['5511955550011', '5511955550012', '5511955550013', '5511955550014'];
    await counted(() => post(batched(phones.map((phone) => ({ phone, body: `oi ${phone}` })))));
    const statements = await counted(async () => {
      await post(batched(phones.map((phone) => ({ phone, body: `de novo ${phone}` }))));
      for (const phone of phones) await expect.poll(() => heard).toContain(`de novo ${phone}`);
    });
    expect(statements).toEqual(['channel_connection_with_key_v1', 'store_inbound_messages_v1']);
  });

  it("of one chat arriving together are stored one statement after another, in the chat's order", async () => {
    const phone = '5511955550021';
    await counted(() => send(phone, 'olá'));
    const bodies = ['um', 'dois', 'três'];
    const statements = await counted(() => post(batched(bodies.map((body) => ({ phone, body })))));
    expect(statements).toEqual([
      'channel_connection_with_key_v1',
      'store_inbound_messages_v1',
      'store_inbound_messages_v1',
      'store_inbound_messages_v1',
    ]);
    const rows = await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.connectionId, connectionId))
      .orderBy(messages.id);
    expect(rows.map((row) => row.body).slice(-3)).toEqual(bodies);
  });

  it('redelivered are not stored again: one store that stores nothing, and one read that finds them', async () => {
    const phones = ['5511955550031', '5511955550032'];
    const payload = batched(phones.map((phone) => ({ phone, body: `uma vez ${phone}` })));
    await counted(() => post(payload));
    const before = await stored();
    const statements = await counted(() => post(payload));
    expect(statements).toEqual([
      'channel_connection_with_key_v1',
      'store_inbound_messages_v1',
      'known_inbound_messages_v1',
    ]);
    expect(await stored()).toBe(before);
  });

  it('coming in webhooks of one connection at once read the connection once while the read is under way', async () => {
    const provider = t.app.channels.provider<CloudApiProvider>('cloud-api')!;
    const targets: unknown[] = [];
    const statements = await counted(async () => {
      targets.push(
        ...(await Promise.all([1, 2, 3].map(() => provider.webhookTarget(connectionId)))),
      );
    });
    expect(statements).toEqual(['channel_connection_with_key_v1']);
    expect(targets).toHaveLength(3);
    for (const target of targets) expect(target).toMatchObject({ ref: { id: connectionId } });
    // Once answered, the next webhook reads it again: a change of its settings applies at once.
    expect(await counted(() => provider.webhookTarget(connectionId))).toEqual([
      'channel_connection_with_key_v1',
    ]);
  });
});
