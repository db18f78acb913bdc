import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphApi, messageWebhook, postWebhook } from '../../../test/fakes/graph-api';
import { startTestServer, type TestServer } from '../../../test/harness';
import { cloudApiConnection, inboxFactories } from '../../../test/inbox';
import { connections, messages, simulatorMessages } from '../../db/schema';
import { systemContext } from '../../platform/auth/context';

/**
 * Outbound sends are claimed before the network is called, so nothing is sent twice: not by
 * concurrent deliveries, not by two retries, not by a retry after a call the network took but
 * never answered. Against the fake Graph API (the Cloud API names messages itself, so a second
 * send would be a second message on the phone) and the simulator (which takes our id).
 */

let t: TestServer;
let graph: FakeGraphApi;
let token: string;
let companyId: number;
let cloudId: number;
let simulatorId: number;

const PHONE_NUMBER_ID = '309080706050';
const PHONE = '5511955501234';
const settings = {
  phoneNumberId: PHONE_NUMBER_ID,
  accessToken: 'EAAGoutboundtest0123456789',
  appSecret: 'outbound-app-secret',
  verifyToken: 'outbound-verify',
};

const connectionRow = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;
const messageRow = async (id: number) =>
  (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;
/** What the Graph API took for the phone with this text. */
const graphSends = (body: string) =>
  graph
    .sentBy(PHONE_NUMBER_ID)
    .filter((send) => (send.body.text as { body?: string } | undefined)?.body === body).length;

/** Waits for a connection's status (expect.poll only runs inside tests). */
async function statusOf(id: number, status: string) {
  for (let waited = 0; (await connectionRow(id)).status !== status; waited += 50) {
    if (waited > 10_000) throw new Error(`connection ${id} never reached ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  graph = await FakeGraphApi.start();
  graph.addNumber(PHONE_NUMBER_ID, settings.accessToken);
  t = await startTestServer(graph.env, undefined, {
    channels: {
      cloudApi: {
        healthCheckMs: 60_000,
        callTimeoutMs: 300,
        retry: { maxRetries: 30, baseDelayMs: 20, maxDelayMs: 100 },
      },
    },
  });
  const { company, admin } = await t.make.company();
  companyId = company.id;
  token = (await t.login(admin.email)).token;
  cloudId = await cloudApiConnection(t, token, settings);
  await statusOf(cloudId, 'CONNECTED');

  const simulator = await t.as(token).post('/whatsapp', { name: 'Sim', provider: 'simulator' });
  simulatorId = simulator.json().id;
  await t.as(token).post(`/whatsappsession/${simulatorId}`);
  await statusOf(simulatorId, 'qrcode');
  await t.as(token).post(`/simulator/connections/${simulatorId}/scan`, {
    qrcode: (await connectionRow(simulatorId)).qrcode,
  });
  await statusOf(simulatorId, 'CONNECTED');
});
afterAll(async () => {
  await t?.stop();
  await graph?.close();
});

/** The Cloud API ticket of the phone, made by the phone writing first. */
async function cloudTicket(): Promise<number> {
  const { payload, id } = messageWebhook(
    PHONE_NUMBER_ID,
    { phone: PHONE, name: 'Rita' },
    {
      type: 'text',
      text: { body: 'oi' },
    },
  );
  const answer = await postWebhook(t.url, cloudId, settings.appSecret, payload);
  expect(answer.status).toBe(200);
  const [row] = await t.database.db
    .select({ ticketId: messages.ticketId })
    .from(messages)
    .where(eq(messages.providerMessageId, id));
  return row!.ticketId;
}

describe('outbound sends', () => {
  it('keep a send the Graph API took but never answered as unknown, sent again only by a person, once', async () => {
    const ticketId = await cloudTicket();
    const ctx = systemContext(t.app.platform.db, companyId);
    graph.stallAnswers(1_500);
    const sending = t.app.services.outbound.send(ctx, ticketId, { body: 'chegou?' });
    await expect(sending).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    graph.stallAnswers(undefined);
    // The phone has it, the inbox does not know.
    expect(graphSends('chegou?')).toBe(1);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.body, 'chegou?'));
    expect(row).toMatchObject({ ack: 0, sendState: 'unknown', providerMessageId: null });
    // The agent's screen is told it may have arrived.
    const told = t.emitted.filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        (e.payload as { message: { id: number } }).message.id === row!.id,
    );
    expect(told.at(-1)?.payload).toMatchObject({ message: { ack: 0, sendState: 'unknown' } });

    // Reconnecting sends what waits, not what may have arrived.
    await t.app.services.outbound.flushPending(companyId, cloudId);
    expect(graphSends('chegou?')).toBe(1);

    // The agent decides to send it again; two clicks (or two agents) make one send.
    const retries = await Promise.all([
      t.as(token).post(`/messages/${row!.id}/retry`),
      t.as(token).post(`/messages/${row!.id}/retry`),
    ]);
    expect(retries.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(graphSends('chegou?')).toBe(2);
    expect(await messageRow(row!.id)).toMatchObject({ ack: 2, sendState: 'sent' });
  });

  it('go out once when deliveries of one message race (a flush, a command, a retry)', async () => {
    const ticketId = await cloudTicket();
    const make = inboxFactories(t);
    const pending = await make.message(companyId, ticketId, {
      connectionId: cloudId,
      fromMe: true,
      body: 'uma vez só',
      ack: 1,
      sendState: 'pending',
    });
    const outbound = t.app.services.outbound;
    await Promise.all([
      outbound.deliver(companyId, pending.id),
      outbound.deliver(companyId, pending.id),
      outbound.flushPending(companyId, cloudId),
      t.app.channelManager.command({
        connectionId: cloudId,
        action: 'send',
        companyId,
        messageId: pending.id,
      }),
    ]);
    expect(graphSends('uma vez só')).toBe(1);
    expect(await messageRow(pending.id)).toMatchObject({ ack: 2, sendState: 'sent' });
  });

  it('recover a send interrupted long ago: again under our id, else shown as unknown', async () => {
    const make = inboxFactories(t);
    const longAgo = new Date(Date.now() - 10 * 60_000);
    const cloudTicketId = await cloudTicket();
    const cut = await make.message(companyId, cloudTicketId, {
      connectionId: cloudId,
      fromMe: true,
      body: 'interrompida',
      ack: 1,
      sendState: 'sending',
    });
    const sent = await t
      .as(token)
      .post(`/simulator/connections/${simulatorId}/phones/${PHONE}/messages`, {
        name: 'Rita',
        body: 'oi pelo simulador',
      });
    expect(sent.statusCode).toBe(201);
    const simulated = async () =>
      (
        await t.database.db
          .select({ ticketId: messages.ticketId })
          .from(messages)
          .where(eq(messages.connectionId, simulatorId))
      )[0];
    await expect.poll(simulated).toBeDefined();
    const resumed = await make.message(companyId, (await simulated())!.ticketId, {
      connectionId: simulatorId,
      fromMe: true,
      body: 'retomada',
      ack: 1,
      sendState: 'sending',
      providerMessageId: '3EB0RESUMED0000000001',
    });
    // A send claimed moments ago is still in flight: left alone.
    const recent = await make.message(companyId, cloudTicketId, {
      connectionId: cloudId,
      fromMe: true,
      body: 'em voo',
      ack: 1,
      sendState: 'sending',
    });
    for (const id of [cut.id, resumed.id]) {
      await t.database.db.update(messages).set({ updatedAt: longAgo }).where(eq(messages.id, id));
    }

    await t.app.services.outbound.flushPending(companyId, cloudId);
    await t.app.services.outbound.flushPending(companyId, simulatorId);
    expect(await messageRow(cut.id)).toMatchObject({ ack: 0, sendState: 'unknown' });
    expect(graphSends('interrompida')).toBe(0);
    expect(await messageRow(recent.id)).toMatchObject({ ack: 1, sendState: 'sending' });
    expect(await messageRow(resumed.id)).toMatchObject({ ack: 2, sendState: 'sent' });
    const copies = await t.database.db
      .select({ n: count() })
      .from(simulatorMessages)
      .where(
        and(
          eq(simulatorMessages.connectionId, simulatorId),
          eq(simulatorMessages.providerMessageId, '3EB0RESUMED0000000001'),
        ),
      );
    expect(copies[0]!.n).toBe(1);
    const announced = t.emitted.filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        (e.payload as { message: { id: number; ack: number } }).message.id === cut.id,
    );
    expect(announced.at(-1)?.payload).toMatchObject({ action: 'update', message: { ack: 0 } });
  });
});

describe('an agent replying while the contact writes', () => {
  it('never deadlocks: every reply and every message of the same ticket is stored', async () => {
    const ticketId = await cloudTicket();
    const rounds = Array.from({ length: 20 }, (_, i) => i);
    const [webhooks, replies] = await Promise.all([
      Promise.all(
        rounds.map((i) => {
          const { payload } = messageWebhook(
            PHONE_NUMBER_ID,
            { phone: PHONE, name: 'Rita' },
            { type: 'text', text: { body: `contato ${i} escreve` } },
          );
          return postWebhook(t.url, cloudId, settings.appSecret, payload);
        }),
      ),
      Promise.all(
        rounds.map((i) =>
          t.as(token).post(`/messages/${ticketId}`, { body: `agente ${i} responde` }),
        ),
      ),
    ]);
    expect(webhooks.map((answer) => answer.status)).toEqual(rounds.map(() => 200));
    // Each reply is stored and answered: sent (201), or, when this file's Graph API took longer
    // than its 300 ms call limit under the burst, kept as failed for a retry (400); never a 500.
    for (const answer of replies) {
      if (answer.statusCode !== 201) {
        expect(answer.json(), answer.body).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG' });
      }
    }
    const bodies = await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.ticketId, ticketId));
    const written = bodies.map(({ body }) => body);
    for (const i of rounds) {
      expect(written).toContain(`contato ${i} escreve`);
      expect(written).toContain(`agente ${i} responde`);
    }
  });
});
