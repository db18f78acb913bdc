import { SECRET_MASK } from '@atendi/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeDialogflow,
  FakeTypebot,
  serviceAccountKey,
  WebhookReceiver,
} from '../../../test/fakes/bot-services';
import { startTestServer, type TestServer } from '../../../test/harness';
import { agent, emittedOf, pairedSimulator, phoneInbox } from '../../../test/inbox';
import {
  integrationDeliveries,
  messages,
  queueIntegrations,
  queues,
  ticketNotes,
  tickets,
} from '../../db/schema';
import { BOT_NOTES } from './queue-integrations.service';

let t: TestServer;
let receiver: WebhookReceiver;
let typebot: FakeTypebot;
let dialogflow: FakeDialogflow;
let phoneSequence = 0;
const SECRET = 'segredo-do-receptor-0123456789';

async function integrationsCompany(useIntegrations = true) {
  const plan = await t.make.plan({ useIntegrations, useOpenAi: true });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const queue = await t.make.queue(company.id, { name: 'Integrações' });
  return { companyId: company.id, adminToken, queue };
}

let home: Awaited<ReturnType<typeof integrationsCompany>>;
let other: Awaited<ReturnType<typeof integrationsCompany>>;

beforeAll(async () => {
  receiver = await new WebhookReceiver(SECRET).start();
  typebot = await new FakeTypebot().start();
  dialogflow = await new FakeDialogflow().start();
  t = await startTestServer({
    BOT_REPLY_DELAY_MS: '300',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DIALOGFLOW_API_URL: dialogflow.url,
    INTEGRATION_RETRY_DELAY_SECONDS: '1',
    INTEGRATION_DELIVERY_RETRIES: '3',
  });
  home = await integrationsCompany();
  other = await integrationsCompany();
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([receiver?.stop(), typebot?.stop(), dialogflow?.stop()]);
});

const webhook = (overrides: Record<string, unknown> = {}) => ({
  type: 'webhook',
  name: 'Meu CRM',
  urlN8N: `${receiver.url}/hook`,
  secret: SECRET,
  ...overrides,
});

describe('the queue integrations routes', () => {
  it('answer 401 without a session, 403 to a user, and 403 when the plan lacks useIntegrations', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/queueIntegration' })).statusCode).toBe(401);
    const user = await agent(t, home.companyId);
    expect((await t.as(user.token).get('/queueIntegration')).statusCode).toBe(403);
    const planless = await integrationsCompany(false);
    for (const res of [
      await t.as(planless.adminToken).get('/queueIntegration'),
      await t.as(planless.adminToken).post('/queueIntegration', webhook()),
      await t.as(planless.adminToken).post('/queueIntegration/testSession', webhook()),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('keep an integration: projectName is its name, secrets answered masked, list with hasMore', async () => {
    const created = await t.as(home.adminToken).post('/queueIntegration', {
      ...webhook({ name: 'CRM Vendas', projectName: 'ignorado' }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const record = created.json();
    expect(record).toMatchObject({
      type: 'webhook',
      name: 'CRM Vendas',
      projectName: 'CRM Vendas',
      urlN8N: `${receiver.url}/hook`,
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      language: 'pt-BR',
      jsonContent: null,
    });
    expect(record.secret).toBe(`${SECRET_MASK}${SECRET.slice(-4)}`);
    expect(created.body).not.toContain(SECRET);
    const [row] = await t.database.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, record.id));
    expect(row!.secretEncrypted).not.toContain(SECRET);

    // The record sent back as read keeps the stored secret; a rename renames the project.
    const updated = await t
      .as(home.adminToken)
      .put(`/queueIntegration/${record.id}`, { ...record, name: 'CRM Novo' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'CRM Novo',
      projectName: 'CRM Novo',
      secret: record.secret,
    });

    const list = await t.as(home.adminToken).get('/queueIntegration?searchParam=crm');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ hasMore: false, count: 1 });
    expect(list.json().queueIntegrations.map((i: { id: number }) => i.id)).toEqual([record.id]);
    expect((await t.as(home.adminToken).get(`/queueIntegration/${record.id}`)).json().name).toBe(
      'CRM Novo',
    );
    expect(
      emittedOf(t, `company-${home.companyId}-queueIntegration`).some(
        (p) =>
          (p as { action: string; queueIntegration?: { id: number } }).action === 'update' &&
          (p as { queueIntegration?: { id: number } }).queueIntegration?.id === record.id,
      ),
    ).toBe(true);

    // A queue and a connection name it; deleting it leaves them without one.
    expect(
      (await t.as(home.adminToken).put(`/queue/${home.queue.id}`, { integrationId: record.id }))
        .statusCode,
    ).toBe(200);
    const removed = await t.as(home.adminToken).delete(`/queueIntegration/${record.id}`);
    expect(removed.statusCode).toBe(200);
    const [queue] = await t.database.db.select().from(queues).where(eq(queues.id, home.queue.id));
    expect(queue!.integrationId).toBeNull();
    expect((await t.as(home.adminToken).get(`/queueIntegration/${record.id}`)).statusCode).toBe(
      404,
    );
  });

  it('refuse what a type needs and lacks, a short name, and a bad service-account key', async () => {
    const cases = [
      { body: webhook({ urlN8N: '' }), field: 'urlN8N' },
      { body: webhook({ name: 'x' }), field: 'name' },
      { body: webhook({ urlN8N: 'ftp://example.com' }), field: 'urlN8N' },
      { body: { type: 'typebot', name: 'Bot', urlN8N: typebot.url }, field: 'typebotSlug' },
      {
        body: { type: 'dialogflow', name: 'DF', jsonContent: '{"not":"a key"}' },
        field: 'jsonContent',
      },
      { body: { type: 'dialogflow', name: 'DF', language: 'fr' }, field: 'language' },
    ];
    for (const { body, field } of cases) {
      const res = await t.as(home.adminToken).post('/queueIntegration', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
  });

  it("treat another company's integration and prompt like ids that exist nowhere", async () => {
    const theirs = (await t.as(other.adminToken).post('/queueIntegration', webhook())).json();
    const theirPrompt = await t.as(other.adminToken).post('/prompt', {
      name: 'Deles',
      prompt: 'Prompt da outra empresa',
      queueId: other.queue.id,
      apiKey: 'sk-deles-0123456789',
    });
    expect(theirPrompt.statusCode, theirPrompt.body).toBe(200);
    for (const res of [
      await t.as(home.adminToken).get(`/queueIntegration/${theirs.id}`),
      await t.as(home.adminToken).put(`/queueIntegration/${theirs.id}`, { name: 'Tomado' }),
      await t.as(home.adminToken).delete(`/queueIntegration/${theirs.id}`),
      await t.as(home.adminToken).get(`/queueIntegration/${theirs.id}/deliveries`),
      await t.as(home.adminToken).post('/queueIntegration/testSession', { id: theirs.id }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    const connectionId = await pairedSimulator(t, home.adminToken, `Ref ${++phoneSequence}`);
    for (const [field, id] of [
      ['integrationId', theirs.id],
      ['promptId', theirPrompt.json().id],
    ] as const) {
      const queue = await t.as(home.adminToken).put(`/queue/${home.queue.id}`, { [field]: id });
      expect(queue.statusCode).toBe(400);
      expect(queue.body).toContain(field);
      const created = await t
        .as(home.adminToken)
        .post('/queue', { name: `Fila ${field}`, color: '#0a0b0c', [field]: id });
      expect(created.statusCode).toBe(400);
      const connection = await t
        .as(home.adminToken)
        .put(`/whatsapp/${connectionId}`, { [field]: id });
      expect(connection.statusCode).toBe(400);
      expect(connection.body).toContain(field);
    }
    const [theirRow] = await t.database.db
      .select()
      .from(queueIntegrations)
      .where(eq(queueIntegrations.id, theirs.id));
    expect(theirRow!.name).toBe('Meu CRM');
  });
});

/** A connection naming the integration, and a phone that writes to it. */
async function conversation(
  integration: Record<string, unknown>,
  on: 'connection' | 'queue' = 'connection',
) {
  const company = await integrationsCompany();
  const created = await t.as(company.adminToken).post('/queueIntegration', integration);
  expect(created.statusCode, created.body).toBe(200);
  const integrationId = created.json().id as number;
  const connectionId = await pairedSimulator(t, company.adminToken, `Bot ${++phoneSequence}`);
  if (on === 'connection') {
    const set = await t.as(company.adminToken).put(`/whatsapp/${connectionId}`, { integrationId });
    expect(set.statusCode, set.body).toBe(200);
  } else {
    await t.as(company.adminToken).put(`/queue/${company.queue.id}`, { integrationId });
    // The only queue is entered at the first message, and its bot answers that message.
    await t
      .as(company.adminToken)
      .put('/settings/sendGreetingMessageOneQueues', { value: 'enabled' });
    const set = await t
      .as(company.adminToken)
      .put(`/whatsapp/${connectionId}`, { queueIds: [company.queue.id] });
    expect(set.statusCode, set.body).toBe(200);
  }
  const phone = `55119${String(70_000_000 + process.pid * 100 + ++phoneSequence).slice(-8)}`;
  const stored = async (text: string) =>
    (
      await t.database.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.companyId, company.companyId), eq(messages.body, text)))
    ).length;
  const write = async (text: string) => {
    const before = await stored(text);
    const sent = await t
      .as(company.adminToken)
      .post(`/simulator/connections/${connectionId}/phones/${phone}/messages`, {
        name: 'Joana Silva',
        body: text,
      });
    expect(sent.statusCode, sent.body).toBe(201);
    await expect.poll(() => stored(text)).toBe(before + 1);
  };
  const inbox = async () =>
    (await phoneInbox(t, company.adminToken, connectionId, phone)).map((m) => m.body);
  const ticket = async () => {
    const [row] = await t.database.db
      .select()
      .from(tickets)
      .where(eq(tickets.companyId, company.companyId))
      .orderBy(desc(tickets.id));
    return row!;
  };
  const notes = async () =>
    (
      await t.database.db
        .select({ note: ticketNotes.note })
        .from(ticketNotes)
        .where(eq(ticketNotes.companyId, company.companyId))
    ).map((row) => row.note);
  const deliveries = async () =>
    (await t.as(company.adminToken).get(`/queueIntegration/${integrationId}/deliveries`)).json()
      .deliveries as {
      event: string;
      status: string;
      attempts: number;
      responseStatus: number | null;
      errorCode: string | null;
      lastError: string | null;
    }[];
  return {
    ...company,
    integrationId,
    connectionId,
    phone,
    write,
    inbox,
    ticket,
    notes,
    deliveries,
  };
}

describe('webhook and n8n deliveries', () => {
  it('post each inbound message and ticket event signed over timestamp.body, logged per integration', async () => {
    const c = await conversation(webhook({ type: 'n8n', name: 'Fluxo n8n' }));
    const start = receiver.posts.length;
    await c.write('Olá, quero um orçamento');
    await expect
      .poll(() => receiver.posts.slice(start).find((p) => p.event === 'message.received'), {
        timeout: 10_000,
      })
      .toBeDefined();
    const post = receiver.posts.slice(start).find((p) => p.event === 'message.received')!;
    expect(post.signed).toBe(true);
    expect(post.path).toBe('/hook');
    expect(post.body).toMatchObject({
      event: 'message.received',
      companyId: c.companyId,
      integrationId: c.integrationId,
      message: { body: 'Olá, quero um orçamento', fromMe: false },
      ticket: { contact: { number: c.phone } },
    });
    await expect
      .poll(
        async () => (await c.deliveries()).find((d) => d.event === 'message.received')?.status,
        { timeout: 10_000 },
      )
      .toBe('delivered');

    // A ticket event: an agent accepts it.
    const ticketId = (await c.ticket()).id;
    expect(
      (await t.as(c.adminToken).put(`/tickets/${ticketId}`, { status: 'open' })).statusCode,
    ).toBe(200);
    await expect
      .poll(
        () => receiver.posts.slice(start).some((p) => p.event === 'ticket.updated' && p.signed),
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('retry a post the receiver answered 500 until it takes it, and say so in the log', async () => {
    const c = await conversation(webhook({ name: 'Receptor instável' }));
    const start = receiver.posts.length;
    receiver.statuses = { 'message.received': [500] };
    await c.write('Mensagem com falha primeiro');
    await expect
      .poll(async () => (await c.deliveries()).find((d) => d.event === 'message.received'), {
        timeout: 20_000,
      })
      .toMatchObject({ status: 'delivered', attempts: 2, errorCode: null, lastError: null });
    const tries = receiver.posts.slice(start).filter((p) => p.event === 'message.received');
    expect(tries.map((p) => p.answered)).toEqual([500, 200]);
    expect(tries.every((p) => p.signed)).toBe(true);
  });

  it('log a receiver that keeps failing as failed after the retries', async () => {
    const c = await conversation(
      webhook({
        name: 'Receptor quebrado',
        urlN8N: `${receiver.url}/down`,
        secret: 'outro-segredo-que-nao-confere',
      }),
    );
    await c.write('Ninguém recebe esta');
    await expect
      .poll(async () => (await c.deliveries()).find((d) => d.event === 'message.received'), {
        timeout: 30_000,
      })
      .toMatchObject({
        status: 'failed',
        attempts: 4,
        // the code and the status for the admin to read, the receiver's words for support
        responseStatus: 401,
        errorCode: 'ERR_INTEGRATION_HTTP_STATUS',
        lastError: 'HTTP 401',
      });
  }, 40_000);

  it("test answers why it failed as a code, never the guard's English internals", async () => {
    const refused = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', webhook({ urlN8N: 'http://eu:senha@127.0.0.1/hook' }));
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toEqual({
      ok: false,
      messages: [],
      error: 'ERR_INTEGRATION_ADDRESS_REFUSED',
    });
    const closed = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', webhook({ urlN8N: 'http://127.0.0.1:1/hook' }));
    expect(closed.json()).toEqual({
      ok: false,
      messages: [],
      error: 'ERR_INTEGRATION_UNREACHABLE',
    });
  });

  it('test a receiver from the dialog: what it answered', async () => {
    const res = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', webhook({ secret: undefined }));
    expect(res.statusCode, res.body).toBe(200);
    // An unsaved dialog has no secret stored yet: the receiver refuses the unsigned post.
    expect(res.json()).toMatchObject({
      ok: false,
      messages: ['HTTP 401', expect.any(String)],
      error: 'ERR_INTEGRATION_HTTP_STATUS',
      status: 401,
    });
    const saved = (
      await t.as(home.adminToken).post('/queueIntegration', webhook({ name: 'Testado' }))
    ).json();
    const tried = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', { id: saved.id, message: 'ping' });
    expect(tried.json()).toMatchObject({ ok: true, messages: ['HTTP 200', '{"received":true}'] });
    expect(receiver.posts.at(-1)).toMatchObject({
      event: 'test',
      signed: true,
      body: { message: 'ping' },
    });
  });
});

describe('a typebot integration', () => {
  const bot = (overrides: Record<string, unknown> = {}) => ({
    type: 'typebot',
    name: 'Typebot Loja',
    urlN8N: typebot.url,
    typebotSlug: typebot.publicId,
    typebotDelayMessage: 0,
    typebotExpires: 10,
    typebotKeywordFinish: 'sair',
    typebotKeywordRestart: 'reiniciar',
    typebotUnknownMessage: 'Não entendi, escolha 1 ou 2.',
    typebotRestartMessage: 'Vamos recomeçar!',
    ...overrides,
  });

  it('starts and continues the chat, answers the unknown and restart messages, and finishes by keyword', async () => {
    const c = await conversation(bot());
    await c.write('Oi');
    await expect
      .poll(c.inbox, { timeout: 10_000 })
      .toEqual(['Olá Joana Silva! Bem-vindo.', 'Escolha um setor:', '1 - Vendas\n2 - Suporte']);
    expect(typebot.calls.at(-1)).toMatchObject({
      kind: 'start',
      text: 'Oi',
      prefilledVariables: { number: c.phone },
    });
    // The ticket is marked as the bot's in the turn that sent those messages.
    await expect.poll(c.ticket).toMatchObject({
      useIntegration: true,
      integrationId: c.integrationId,
    });

    await c.write('banana');
    await expect.poll(c.inbox, { timeout: 10_000 }).toHaveLength(4);
    expect((await c.inbox()).at(-1)).toBe('Não entendi, escolha 1 ou 2.');

    await c.write('1');
    await expect
      .poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 })
      .toBe('Você escolheu Vendas. Qual é o seu nome?');
    const sessionId = typebot.calls.at(-1)!.sessionId;
    expect(typebot.calls.at(-1)).toMatchObject({ kind: 'continue', text: '1' });

    // Restart: the session is dropped and the next message starts a new one.
    await c.write('Reiniciar');
    await expect
      .poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 })
      .toBe('Vamos recomeçar!');
    await c.write('Olá de novo');
    await expect
      .poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 })
      .toBe('1 - Vendas\n2 - Suporte');
    expect(typebot.calls.at(-1)).toMatchObject({ kind: 'start', text: 'Olá de novo' });
    expect(typebot.sessions.has(sessionId!)).toBe(true);

    // Finish: the bot lets go and a person takes over, with a note saying why.
    const sent = (await c.inbox()).length;
    await c.write('SAIR');
    await expect.poll(c.notes, { timeout: 10_000 }).toContain(BOT_NOTES.finished);
    await expect.poll(c.ticket).toMatchObject({ useIntegration: false });
    await c.write('Alguém aí?');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await c.inbox()).toHaveLength(sent);
  });

  it('ends the session when the flow ends, and starts over after typebotExpires', async () => {
    const c = await conversation(bot({ typebotExpires: 1 }), 'queue');
    await c.write('Oi');
    await expect.poll(async () => (await c.inbox()).length, { timeout: 10_000 }).toBe(3);
    // An expired session (its last message over a minute ago) is not continued.
    await t.database.pool.query(
      `update integration_sessions set last_activity_at = now() - interval '2 minutes' where company_id = $1`,
      [c.companyId],
    );
    await c.write('2');
    await expect.poll(async () => (await c.inbox()).length, { timeout: 10_000 }).toBe(6);
    expect(typebot.calls.at(-1)).toMatchObject({ kind: 'start', text: '2' });
    await c.write('2');
    await expect
      .poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 })
      .toBe('Você escolheu Suporte. Qual é o seu nome?');
    await c.write('Joana');
    await expect
      .poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 })
      .toBe('Obrigado, Joana! Até logo.');
    await expect.poll(c.notes, { timeout: 10_000 }).toContain(BOT_NOTES.ended);
  });

  it('hands the ticket to a person when Typebot fails, and tests a session from the dialog', async () => {
    const c = await conversation(bot({ typebotSlug: 'nao-existe' }));
    await c.write('Oi');
    await expect.poll(c.notes, { timeout: 10_000 }).toContain(BOT_NOTES.failed);
    expect(await c.inbox()).toEqual([]);

    const tried = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', { ...bot(), message: 'Olá' });
    expect(tried.json()).toEqual({
      ok: true,
      messages: ['Olá! Bem-vindo.', 'Escolha um setor:', '1 - Vendas\n2 - Suporte'],
    });
    const failed = await t
      .as(home.adminToken)
      .post('/queueIntegration/testSession', bot({ typebotSlug: 'outro' }));
    expect(failed.json()).toEqual({
      ok: false,
      messages: [],
      error: 'ERR_INTEGRATION_HTTP_STATUS',
      status: 404,
    });
  });
});

describe('a dialogflow integration', () => {
  const account = () => {
    const made = serviceAccountKey(dialogflow.tokenUrl, 'loja-agente');
    dialogflow.allow(made.key.client_email, made.publicKeyPem);
    return made;
  };

  it('detects intents in the chosen language with a signed service-account token', async () => {
    const key = account();
    const c = await conversation({
      type: 'dialogflow',
      name: 'Agente',
      projectName: 'loja-agente',
      language: 'en',
      jsonContent: key.json,
    });
    const read = (await t.as(c.adminToken).get(`/queueIntegration/${c.integrationId}`)).json();
    expect(read.jsonContent).toBe(`${SECRET_MASK}${key.key.client_email}`);
    expect(JSON.stringify(read)).not.toContain('PRIVATE KEY');

    await c.write('What are your hours?');
    await expect
      .poll(c.inbox, { timeout: 10_000 })
      .toEqual(['We are open Monday to Friday, 8am to 6pm.']);
    const ticketId = (await c.ticket()).id;
    expect(dialogflow.detects.at(-1)).toMatchObject({
      projectId: 'loja-agente',
      sessionId: `ticket-${ticketId}`,
      languageCode: 'en',
      text: 'What are your hours?',
    });
    expect(dialogflow.tokenRequests.at(-1)).toEqual({
      email: key.key.client_email,
      scope: 'https://www.googleapis.com/auth/dialogflow',
    });

    // An intent that ends the conversation: its answer, then a person.
    await c.write('bye');
    await expect.poll(async () => (await c.inbox()).at(-1), { timeout: 10_000 }).toBe('Goodbye!');
    await expect.poll(c.notes, { timeout: 10_000 }).toContain(BOT_NOTES.ended);
  });

  it('tests a session in pt-BR and es, and says when the key is refused', async () => {
    const key = account();
    const pt = await t.as(home.adminToken).post('/queueIntegration/testSession', {
      projectName: 'loja-agente',
      jsonContent: key.json,
      language: 'pt-BR',
      message: 'Qual o horário?',
    });
    expect(pt.json()).toEqual({
      ok: true,
      messages: ['Funcionamos de segunda a sexta, das 8h às 18h.'],
    });
    const es = await t.as(home.adminToken).post('/queueIntegration/testSession', {
      type: 'dialogflow',
      jsonContent: key.json,
      language: 'es',
      message: 'hola',
    });
    expect(es.json()).toEqual({ ok: true, messages: ['Lo siento, no entendí.'] });
    const stranger = serviceAccountKey(dialogflow.tokenUrl);
    const refused = await t.as(home.adminToken).post('/queueIntegration/testSession', {
      jsonContent: stranger.json,
      language: 'pt-BR',
    });
    expect(refused.json()).toMatchObject({
      ok: false,
      error: 'ERR_INTEGRATION_HTTP_STATUS',
      status: 400,
    });
  });
});

describe('outbound addresses', () => {
  let guarded: TestServer;
  afterAll(async () => {
    await guarded?.stop();
  });

  it('refuses private targets when the operator does not allow them: no post leaves', async () => {
    guarded = await startTestServer({ INTEGRATION_RETRY_DELAY_SECONDS: '1' });
    const plan = await guarded.make.plan({ useIntegrations: true });
    const { admin } = await guarded.make.company({ planId: plan.id });
    const token = (await guarded.login(admin.email)).token;
    const before = receiver.posts.length;
    for (const url of [
      `${receiver.url}/hook`,
      'http://localhost:9/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]:9/',
    ]) {
      const res = await guarded
        .as(token)
        .post('/queueIntegration/testSession', webhook({ urlN8N: url }));
      expect(res.statusCode, url).toBe(200);
      expect(res.json().ok).toBe(false);
      expect(res.json().error, url).toBe('ERR_INTEGRATION_ADDRESS_REFUSED');
    }
    const tried = await guarded.as(token).post('/queueIntegration/testSession', {
      jsonContent: serviceAccountKey(dialogflow.tokenUrl).json,
    });
    expect(tried.json().error).toBe('ERR_INTEGRATION_ADDRESS_REFUSED');
    expect(receiver.posts.length).toBe(before);
    expect(dialogflow.tokenRequests.length).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('logs a delivery to a refused address as failed at once, without retries', async () => {
    const plan = await guarded.make.plan({ useIntegrations: true });
    const { company } = await guarded.make.company({ planId: plan.id });
    const db = guarded.database.db;
    const [integration] = await db
      .insert(queueIntegrations)
      .values({
        companyId: company.id,
        type: 'webhook',
        name: 'Interno',
        urlN8N: `${receiver.url}/hook`,
      })
      .returning();
    const [delivery] = await db
      .insert(integrationDeliveries)
      .values({
        companyId: company.id,
        integrationId: integration!.id,
        event: 'message.received',
        payload: {},
      })
      .returning();
    await guarded.app.services.queueIntegrations.deliver(company.id, delivery!.id, false);
    const [row] = await db
      .select()
      .from(integrationDeliveries)
      .where(eq(integrationDeliveries.id, delivery!.id));
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 1,
      errorCode: 'ERR_INTEGRATION_ADDRESS_REFUSED',
    });
    expect(row!.lastError).toContain('private address');
  });
});
