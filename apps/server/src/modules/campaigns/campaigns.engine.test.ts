import { readFileSync } from 'node:fs';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { formParts, inboxFactories, PNG, pairedSimulator, phoneInbox } from '../../../test/inbox';
import {
  campaignOptOuts,
  campaignShipping,
  campaigns,
  contactListItems,
  messages,
  simulatorMessages,
} from '../../db/schema';
import { TenantDb } from '../../db/tenant';
import { pauseAfter } from './campaigns.service';

/** One second of the settings' intervals is 5 ms here: the pacing is the same, only faster. */
const SECOND_MS = 5;
/** A thousand sends (a question and a message each), paced, on a shared test machine. */
const RECIPIENTS = 500;
const ENV = { CAMPAIGN_SECOND_MS: String(SECOND_MS), CAMPAIGN_PAUSE_RETRY_MS: '200' };

let t: TestServer;
let make: ReturnType<typeof inboxFactories>;

beforeAll(async () => {
  t = await startTestServer(ENV);
  make = inboxFactories(t);
});
afterAll(() => t.stop());

let listSeq = 10;

/** A company with campaigns, its simulator paired, its settings and a list of `size` numbers. */
async function sender(size: number, settings: Record<string, unknown> = {}) {
  const plan = await t.make.plan({ useCampaigns: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const token = (await t.login(admin.email)).token;
  const connectionId = await pairedSimulator(t, token);
  const saved = await t.as(token).post('/campaign-settings', {
    settings: {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: 'loja', value: 'Loja Centro' }],
      ...settings,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const list = (await t.as(token).post('/contact-lists', { name: 'Clientes' })).json() as {
    id: number;
  };
  listSeq += 1;
  const numbers = Array.from(
    { length: size },
    (_, i) => `55119${String(listSeq).padStart(2, '0')}${String(i).padStart(6, '0')}`,
  );
  if (size > 0) {
    await new TenantDb(t.database.db, company.id).insert(
      contactListItems,
      numbers.map((number, i) => ({
        contactListId: list.id,
        number,
        name: `Pessoa${i} Silva`,
      })),
    );
  }
  return { companyId: company.id, token, connectionId, listId: list.id, numbers };
}

type Sender = Awaited<ReturnType<typeof sender>>;

/** A campaign due now (a date in the past): it starts at once. */
async function launch(s: Sender, body: Record<string, unknown> = {}) {
  const res = await t.as(s.token).post('/campaigns', {
    name: 'Campanha',
    message1: 'Oi {{contactFirstName}}, novidades da {{loja}}!',
    message2: 'Olá {{contactFirstName}}, a {{loja}} tem ofertas!',
    whatsappId: s.connectionId,
    contactListId: s.listId,
    scheduledAt: '2020-01-01 10:00:00',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().status).toBe('PROGRAMADA');
  return res.json().id as number;
}

const statusOf = async (id: number) =>
  (await t.database.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!.status;
const shippingOf = (id: number) =>
  t.database.db
    .select()
    .from(campaignShipping)
    .where(eq(campaignShipping.campaignId, id))
    .orderBy(asc(campaignShipping.id));
const messagesTo = async (s: Sender, phone: string) =>
  (await phoneInbox(t, s.token, s.connectionId, phone)).map((m) => m.body);

describe('the pause between sends', () => {
  it('is the interval a quarter either way, plus the longer one after so many sends', () => {
    const settings = { messageInterval: 20, longerIntervalAfter: 3, greaterInterval: 60 };
    expect(pauseAfter(settings, 0, 1000, () => 0)).toEqual({ delayMs: 15_000, sendsInRow: 1 });
    expect(pauseAfter(settings, 1, 1000, () => 1)).toEqual({ delayMs: 25_000, sendsInRow: 2 });
    expect(pauseAfter(settings, 2, 1000, () => 0.5)).toEqual({ delayMs: 80_000, sendsInRow: 0 });
    expect(pauseAfter({ ...settings, longerIntervalAfter: 0 }, 50, 1000, () => 0.5)).toEqual({
      delayMs: 20_000,
      sendsInRow: 51,
    });
  });
});

describe('a campaign with confirmation', () => {
  it('asks everyone, sends the message to who answered, paced, and reaches FINALIZADA', {
    timeout: 600_000,
  }, async () => {
    const s = await sender(RECIPIENTS, {
      messageInterval: 5,
      longerIntervalAfter: 20,
      greaterInterval: 5,
    });
    const id = await launch(s, {
      confirmation: true,
      confirmationMessage1: '{{contactFirstName}}, quer receber as ofertas? Responda SIM',
    });
    // Every recipient is asked first.
    await expect
      .poll(
        async () =>
          (await shippingOf(id)).filter((row) => row.confirmationRequestedAt !== null).length,
        { timeout: 300_000, interval: 500 },
      )
      .toBe(RECIPIENTS);
    expect(await statusOf(id)).toBe('EM_ANDAMENTO');
    // Nobody got the message itself before answering.
    expect((await shippingOf(id)).every((row) => row.messageId === null)).toBe(true);
    // Every phone answers.
    const replyAll = s.numbers.map((phone) => async () => {
      const res = await t
        .as(s.token)
        .post(`/simulator/connections/${s.connectionId}/phones/${phone}/messages`, {
          body: 'SIM',
        });
      expect(res.statusCode, res.body).toBe(201);
    });
    for (let i = 0; i < replyAll.length; i += 10) {
      await Promise.all(replyAll.slice(i, i + 10).map((reply) => reply()));
    }
    await expect.poll(() => statusOf(id), { timeout: 300_000, interval: 500 }).toBe('FINALIZADA');

    const rows = await shippingOf(id);
    expect(rows).toHaveLength(RECIPIENTS);
    for (const row of rows) {
      expect(row.confirmationRequestedAt).not.toBeNull();
      expect(row.confirmedAt).not.toBeNull();
      expect(row.deliveredAt).not.toBeNull();
      expect(row.messageId).not.toBeNull();
      expect(row.skipped).toBeNull();
    }
    // The pacing: consecutive sends at least the interval's lower bound apart (5 s of
    // settings, a quarter less), whichever instance or job sent them.
    const claims = rows
      .flatMap((row) => [row.confirmationRequestedAt!, row.sentAt!])
      .map((at) => at.getTime())
      .sort((a, b) => a - b);
    expect(claims).toHaveLength(2 * RECIPIENTS);
    const gaps = claims.slice(1).map((at, i) => at - claims[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(5 * SECOND_MS * 0.75));
    // After every 20 sends the longer pause comes on top (5 s of settings): at least one such
    // gap per 20 sends, the last 20 excepted.
    const longer = gaps.filter((gap) => gap >= Math.floor((5 * 0.75 + 5) * SECOND_MS)).length;
    expect(longer).toBeGreaterThanOrEqual(Math.floor((2 * RECIPIENTS) / 20) - 1);

    // A sample of phones: the question first, then one of the two messages, filled in.
    for (const [i, phone] of s.numbers.slice(0, 5).entries()) {
      const got = await messagesTo(s, phone);
      expect(got).toHaveLength(2);
      expect(got[0]).toBe(`Pessoa${i}, quer receber as ofertas? Responda SIM`);
      expect([
        `Oi Pessoa${i}, novidades da Loja Centro!`,
        `Olá Pessoa${i}, a Loja Centro tem ofertas!`,
      ]).toContain(got[1]);
    }
    const detail = (await t.as(s.token).get(`/campaigns/${id}`)).json();
    expect(detail).toMatchObject({
      status: 'FINALIZADA',
      completedAt: expect.any(String),
      report: {
        validContacts: RECIPIENTS,
        delivered: RECIPIENTS,
        confirmationRequested: RECIPIENTS,
        confirmed: RECIPIENTS,
        optedOut: 0,
      },
    });
    expect(
      detail.report.timeline.reduce(
        (sum: number, p: { delivered: number }) => sum + p.delivered,
        0,
      ),
    ).toBe(RECIPIENTS);
  });
});

describe('cancel and restart', () => {
  it('stops sending when cancelled and, restarted, writes only to who was left', {
    timeout: 300_000,
  }, async () => {
    const s = await sender(40, { messageInterval: 5 });
    const id = await launch(s);
    await expect
      .poll(async () => (await shippingOf(id)).filter((row) => row.messageId).length, {
        timeout: 60_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(5);
    const cancelled = await t.as(s.token).post(`/campaigns/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // A send claimed before the cancel may still finish; after it, nothing more is claimed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const atCancel = (await shippingOf(id)).filter((row) => row.messageId).length;
    expect(atCancel).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await shippingOf(id)).filter((row) => row.messageId).length).toBe(atCancel);
    expect(await statusOf(id)).toBe('CANCELADA');
    // Only a cancelled one restarts; the buttons' rule holds on the server too.
    const restarted = await t.as(s.token).post(`/campaigns/${id}/restart`);
    expect(restarted.json().status).toBe('EM_ANDAMENTO');
    expect((await t.as(s.token).post(`/campaigns/${id}/restart`)).statusCode).toBe(400);
    await expect.poll(() => statusOf(id), { timeout: 180_000, interval: 200 }).toBe('FINALIZADA');
    for (const phone of s.numbers) {
      expect(await messagesTo(s, phone), phone).toHaveLength(1);
    }
    const rows = await shippingOf(id);
    expect(rows.every((row) => row.deliveredAt !== null)).toBe(true);
  });
});

describe('two instances', () => {
  it('write to each recipient once, whichever runs the jobs and the sweeps', {
    timeout: 300_000,
  }, async () => {
    const second = await startTestServer(ENV, t);
    try {
      const s = await sender(40);
      const id = await launch(s);
      // Both instances push the campaign on at the same time, besides their jobs.
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? second : t).app.services.campaigns.tick(s.companyId, id),
        ),
        t.app.services.campaigns.sweep(),
        second.app.services.campaigns.sweep(),
      ]);
      await expect.poll(() => statusOf(id), { timeout: 180_000, interval: 200 }).toBe('FINALIZADA');
      for (const phone of s.numbers) {
        expect(await messagesTo(s, phone), phone).toHaveLength(1);
      }
      const stored = await t.database.db
        .select({ id: messages.id })
        .from(messages)
        .innerJoin(campaignShipping, eq(campaignShipping.messageId, messages.id))
        .where(eq(campaignShipping.campaignId, id));
      expect(stored).toHaveLength(40);
    } finally {
      await second.stop();
    }
  });
});

/** Uploads a file for each of a file list's options in one request, as the files page does. */
async function uploadOptions(
  token: string,
  listId: number,
  files: {
    option: { id: number; name: string };
    fileName: string;
    type: string;
    content: Buffer;
  }[],
) {
  const form = formParts([
    { field: 'fileId', value: String(listId) },
    { field: 'typeArch', value: 'fileList' },
    ...files.flatMap(({ option, fileName, type, content }) => [
      { field: 'files', name: fileName, type, content },
      { field: 'mediaType', value: type },
      { field: 'name', value: option.name },
      { field: 'id', value: String(option.id) },
    ]),
  ]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/files/uploadList/${listId}`,
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${token}` },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
}

describe('a campaign with a file list', () => {
  it("sends each recipient the message, then each option's file in the list's order", {
    timeout: 120_000,
  }, async () => {
    const s = await sender(3);
    const created = await t.as(s.token).post('/files', {
      name: 'Materiais',
      message: 'Confira os materiais',
      options: [{ name: 'Catálogo' }, { name: 'Sem arquivo' }, { name: 'Tabela de preços' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = created.json() as { id: number; options: { id: number; name: string }[] };
    const [catalogue, empty, prices] = list.options as [
      { id: number; name: string },
      { id: number; name: string },
      { id: number; name: string },
    ];
    expect(empty.name).toBe('Sem arquivo');
    const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    // Uploaded in the other order: what is sent follows the list, not the upload.
    await uploadOptions(s.token, list.id, [
      { option: prices, fileName: 'precos.pdf', type: 'application/pdf', content: PDF },
      { option: catalogue, fileName: 'catalogo.png', type: 'image/png', content: PNG },
    ]);

    const id = await launch(s, { message2: '', fileListId: list.id });
    await expect.poll(() => statusOf(id), { timeout: 60_000, interval: 200 }).toBe('FINALIZADA');
    const received = (phone: string) =>
      t.database.db
        .select()
        .from(simulatorMessages)
        .where(
          and(
            eq(simulatorMessages.connectionId, s.connectionId),
            eq(simulatorMessages.phone, phone),
            eq(simulatorMessages.direction, 'outbound'),
          ),
        )
        .orderBy(asc(simulatorMessages.id));
    for (const [i, phone] of s.numbers.entries()) {
      await expect.poll(async () => (await received(phone)).length, { timeout: 20_000 }).toBe(3);
      const got = await received(phone);
      expect(
        got.map(({ kind, body, fileName, mimeType }) => ({ kind, body, fileName, mimeType })),
      ).toEqual([
        {
          kind: 'text',
          body: `Oi Pessoa${i}, novidades da Loja Centro!`,
          fileName: null,
          mimeType: null,
        },
        { kind: 'image', body: 'Catálogo', fileName: 'catalogo.png', mimeType: 'image/png' },
        {
          kind: 'document',
          body: 'Tabela de preços',
          fileName: 'precos.pdf',
          mimeType: 'application/pdf',
        },
      ]);
      // The phone has the very files uploaded to the list.
      const files = got
        .slice(1)
        .map((row) => readFileSync(t.app.platform.storage.pathOf(row.mediaPath!)));
      expect(files[0]!.equals(PNG)).toBe(true);
      expect(files[1]!.equals(PDF)).toBe(true);
    }
    // One message per recipient in the campaign's rows, delivered; the files are not recipients.
    const rows = await shippingOf(id);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.messageId !== null && row.deliveredAt !== null)).toBe(true);
  });

  it('keeps the files for the message: the confirmation question goes alone', {
    timeout: 120_000,
  }, async () => {
    const s = await sender(1);
    const created = await t.as(s.token).post('/files', {
      name: 'Materiais',
      message: 'Confira',
      options: [{ name: 'Foto' }],
    });
    const list = created.json() as { id: number; options: { id: number; name: string }[] };
    await uploadOptions(s.token, list.id, [
      { option: list.options[0]!, fileName: 'foto.png', type: 'image/png', content: PNG },
    ]);
    const id = await launch(s, {
      message2: '',
      fileListId: list.id,
      confirmation: true,
      confirmationMessage1: 'Quer ver as ofertas?',
    });
    const phone = s.numbers[0]!;
    await expect
      .poll(() => messagesTo(s, phone), { timeout: 30_000 })
      .toEqual(['Quer ver as ofertas?']);
    await t
      .as(s.token)
      .post(`/simulator/connections/${s.connectionId}/phones/${phone}/messages`, { body: 'Sim' });
    await expect.poll(() => statusOf(id), { timeout: 60_000, interval: 200 }).toBe('FINALIZADA');
    await expect
      .poll(() => messagesTo(s, phone), { timeout: 20_000 })
      .toEqual(['Quer ver as ofertas?', 'Oi Pessoa0, novidades da Loja Centro!', 'Foto']);
  });
});

describe('keeping the number safe', () => {
  it('never writes again to who answered an opt-out word', { timeout: 300_000 }, async () => {
    const s = await sender(6);
    const [quitter, late, ...rest] = s.numbers as [string, string, ...string[]];
    // Before the campaign, the first one wrote "sair".
    const res = await t
      .as(s.token)
      .post(`/simulator/connections/${s.connectionId}/phones/${quitter}/messages`, {
        body: ' sair ',
      });
    expect(res.statusCode).toBe(201);
    await expect
      .poll(
        async () =>
          (
            await t.database.db
              .select()
              .from(campaignOptOuts)
              .where(
                and(
                  eq(campaignOptOuts.companyId, s.companyId),
                  eq(campaignOptOuts.number, quitter),
                ),
              )
          ).length,
      )
      .toBe(1);
    // With confirmation: the second one answers the question with "PARAR".
    const id = await launch(s, { confirmation: true, confirmationMessage1: 'Quer ofertas?' });
    await expect
      .poll(
        async () =>
          (await shippingOf(id)).filter((row) => row.confirmationRequestedAt || row.skipped).length,
        { timeout: 60_000 },
      )
      .toBe(6);
    await t
      .as(s.token)
      .post(`/simulator/connections/${s.connectionId}/phones/${late}/messages`, { body: 'PARAR' });
    for (const phone of rest) {
      await t
        .as(s.token)
        .post(`/simulator/connections/${s.connectionId}/phones/${phone}/messages`, { body: 'Sim' });
    }
    await expect.poll(() => statusOf(id), { timeout: 180_000, interval: 200 }).toBe('FINALIZADA');
    expect(await messagesTo(s, quitter)).toEqual([]);
    expect(await messagesTo(s, late)).toEqual(['Quer ofertas?']);
    for (const phone of rest) expect(await messagesTo(s, phone)).toHaveLength(2);
    const rows = await shippingOf(id);
    expect(rows.find((row) => row.number === quitter)!.skipped).toBe('opted-out');
    expect(rows.find((row) => row.number === late)!.skipped).toBe('opted-out');
    const detail = (await t.as(s.token).get(`/campaigns/${id}`)).json();
    expect(detail.report).toMatchObject({ validContacts: 4, optedOut: 2, delivered: 4 });

    // A later campaign of the company leaves both out from the start.
    const again = await launch(s);
    await expect
      .poll(() => statusOf(again), { timeout: 180_000, interval: 200 })
      .toBe('FINALIZADA');
    expect(await messagesTo(s, quitter)).toEqual([]);
    expect(await messagesTo(s, late)).toEqual(['Quer ofertas?']);
  });

  it('pauses, failing nobody, while its connection is down', async () => {
    const s = await sender(3);
    const down = await make.connection(s.companyId, { name: 'Desligado', status: 'DISCONNECTED' });
    const id = await launch(s, { whatsappId: down.id });
    const service = t.app.services.campaigns;
    await expect.poll(() => statusOf(id)).toBe('EM_ANDAMENTO');
    expect(await service.tick(s.companyId, id)).toMatchObject({ outcome: 'paused' });
    const rows = await shippingOf(id);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.skipped === null && row.messageId === null)).toBe(true);
    expect(await statusOf(id)).toBe('EM_ANDAMENTO');
  });

  it('stops for the day at the daily cap of its connection', { timeout: 60_000 }, async () => {
    const s = await sender(5, { dailyLimit: 3 });
    const id = await launch(s);
    await expect
      .poll(async () => (await shippingOf(id)).filter((row) => row.messageId).length, {
        timeout: 30_000,
      })
      .toBe(3);
    expect(await t.app.services.campaigns.tick(s.companyId, id)).toMatchObject({
      outcome: 'capped',
      nextInMs: expect.any(Number),
    });
    expect((await shippingOf(id)).filter((row) => row.messageId).length).toBe(3);
    expect(await statusOf(id)).toBe('EM_ANDAMENTO');
  });

  it('also writes to the contacts whose conversations carry the chosen tag', {
    timeout: 60_000,
  }, async () => {
    const s = await sender(1);
    const contact = await make.contact(s.companyId, { name: 'Tagueado', number: '5511977770001' });
    const ticket = await make.ticket(s.companyId, { contactId: contact.id, status: 'closed' });
    const tag = await make.tag(s.companyId, { name: 'VIP' });
    await make.tagTicket(s.companyId, ticket.id, tag.id);
    const id = await launch(s, { tagListId: tag.id });
    await expect.poll(() => statusOf(id), { timeout: 120_000, interval: 200 }).toBe('FINALIZADA');
    expect((await shippingOf(id)).map((row) => row.number).sort()).toEqual(
      [s.numbers[0], '5511977770001'].sort(),
    );
    expect(await messagesTo(s, '5511977770001')).toHaveLength(1);
    const delivered = await t.database.db
      .select()
      .from(campaignShipping)
      .where(and(eq(campaignShipping.campaignId, id), isNotNull(campaignShipping.deliveredAt)));
    expect(delivered).toHaveLength(2);
  });
});
