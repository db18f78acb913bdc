import { HANDOFF_MARKER, PROMPT_MSG } from '@atendi/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAiServices } from '../../../test/fakes/ai-services';
import { startTestServer, type TestServer } from '../../../test/harness';
import {
  agent,
  closeSockets,
  emittedOf,
  pairedSimulator,
  phoneInbox,
  socketFor,
} from '../../../test/inbox';
import { messages, prompts, queues, ticketNotes, tickets } from '../../db/schema';
import { BOT_TURN_JOB } from '../automations/automations.service';
import { HANDOFF_NOTES } from './prompts.service';

let t: TestServer;
let ai: FakeAiServices;
/** Every line the server logs (warnings and up). */
const logLines: string[] = [];
let phoneSequence = 0;
const HOURLY_LIMIT = 3;
const API_KEY = 'sk-test-0123456789abcdefWXYZ';

/** A company whose plan has AI prompts, with its admin signed in and a queue. */
async function aiCompany(useOpenAi = true) {
  const plan = await t.make.plan({ useOpenAi });
  const { company, admin } = await t.make.company({ planId: plan.id });
  const adminToken = (await t.login(admin.email)).token;
  const queue = await t.make.queue(company.id, { name: 'Atendimento IA' });
  return { companyId: company.id, adminToken, queue };
}

let home: Awaited<ReturnType<typeof aiCompany>>;
let other: Awaited<ReturnType<typeof aiCompany>>;

beforeAll(async () => {
  ai = await new FakeAiServices().start();
  t = await startTestServer(
    {
      BOT_REPLY_DELAY_MS: '400',
      OPENAI_BASE_URL: ai.openAiUrl,
      OPENAI_MODEL: 'modelo-local',
      AZURE_TTS_URL: ai.speechUrl,
      OUTBOUND_ALLOW_PRIVATE: new URL(ai.openAiUrl).host,
      AI_MAX_COMPLETIONS_PER_TICKET_HOUR: String(HOURLY_LIMIT),
      LOG_LEVEL: 'warn',
    },
    undefined,
    {
      logStream: { write: (text: string) => logLines.push(...text.trimEnd().split('\n')) },
    },
  );
  home = await aiCompany();
  other = await aiCompany();
});
afterAll(async () => {
  closeSockets();
  await t?.stop();
  await ai?.stop();
});

const PROMPT_TEXT =
  'Você é a assistente virtual da Padaria Pão Quente. Responda com educação e brevidade.';
const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Assistente',
  prompt: PROMPT_TEXT,
  queueId: home.queue.id,
  apiKey: API_KEY,
  ...overrides,
});

describe('the prompts routes', () => {
  it('answer 401 without a session, 403 to a user, and 403 when the plan lacks useOpenAi', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/prompt' })).statusCode).toBe(401);
    const user = await agent(t, home.companyId);
    expect((await t.as(user.token).get('/prompt')).statusCode).toBe(403);
    const planless = await aiCompany(false);
    const refused = await t
      .as(planless.adminToken)
      .post('/prompt', body({ queueId: planless.queue.id }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it("refuses a prompt without a queue with the spec's 'Informe o setor'", async () => {
    const res = await t.as(home.adminToken).post('/prompt', body({ queueId: undefined }));
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Informe o setor');
    const empty = await t.as(home.adminToken).post('/prompt', body({ queueId: '' }));
    expect(JSON.stringify(empty.json())).toContain('Informe o setor');
  });

  it("says at once that a key is missing where the provider asks for one (OpenAI's own API)", async () => {
    // the default provider; nothing is sent to it, the save is refused before
    const openAi = await startTestServer();
    try {
      const plan = await openAi.make.plan({ useOpenAi: true });
      const { company, admin } = await openAi.make.company({ planId: plan.id });
      const token = (await openAi.login(admin.email)).token;
      const queue = await openAi.make.queue(company.id, { name: 'IA' });
      const keyless = { name: 'Sem chave', prompt: PROMPT_TEXT, queueId: queue.id, apiKey: '' };
      const refused = await openAi.as(token).post('/prompt', keyless);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        error: 'ERR_VALIDATION',
        fields: [{ path: 'body.apiKey', message: PROMPT_MSG.keyMissing }],
      });
      const saved = await openAi.as(token).post('/prompt', { ...keyless, apiKey: API_KEY });
      expect(saved.statusCode, saved.body).toBe(200);
      // the stored key cannot be taken away either; its hint sent back keeps it
      const id = saved.json().id;
      expect((await openAi.as(token).put(`/prompt/${id}`, { apiKey: '' })).statusCode).toBe(400);
      const kept = await openAi
        .as(token)
        .put(`/prompt/${id}`, { ...(saved.json() as object), name: 'Outro' });
      expect(kept.statusCode, kept.body).toBe(200);
    } finally {
      await openAi.stop();
    }
  });

  it("refuses another company's queue", async () => {
    const res = await t.as(home.adminToken).post('/prompt', body({ queueId: other.queue.id }));
    expect(res.statusCode).toBe(404);
  });

  it('creates a prompt with the defaults, its keys encrypted and answered as hints only', async () => {
    const socket = await socketFor(t, home.adminToken);
    const heard: unknown[] = [];
    socket.on(`company-${home.companyId}-prompt`, (payload) => heard.push(payload));
    const res = await t
      .as(home.adminToken)
      .post('/prompt', body({ voiceKey: 'azure-voice-key-123456789', companyId: other.companyId }));
    expect(res.statusCode, res.body).toBe(200);
    const prompt = res.json();
    expect(prompt).toMatchObject({
      name: 'Assistente',
      prompt: PROMPT_TEXT,
      queueId: home.queue.id,
      queue: { id: home.queue.id, name: 'Atendimento IA' },
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'texto',
      apiKey: '••••WXYZ',
      voiceKey: '••••6789',
    });
    expect(res.body).not.toContain(API_KEY);
    const [row] = await t.database.db.select().from(prompts).where(eq(prompts.id, prompt.id));
    expect(row!.companyId).toBe(home.companyId);
    expect(row!.apiKeyEncrypted).toBeTruthy();
    expect(row!.apiKeyEncrypted).not.toContain(API_KEY);
    await expect.poll(() => heard).toEqual([{ action: 'create', prompt }]);

    // The original client sends back the record it read: the hint keeps the stored key.
    const updated = await t.as(home.adminToken).put(`/prompt/${prompt.id}`, {
      ...prompt,
      maxTokens: '150',
      temperature: 0.5,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ maxTokens: 150, temperature: 0.5, apiKey: '••••WXYZ' });
    const [after] = await t.database.db.select().from(prompts).where(eq(prompts.id, prompt.id));
    expect(after!.apiKeyEncrypted).toBe(row!.apiKeyEncrypted);
  });

  it('lists the company’s prompts with a search, and hides them from another company', async () => {
    const created = (
      await t.as(home.adminToken).post('/prompt', body({ name: 'Vendas IA' }))
    ).json();
    const list = await t.as(home.adminToken).get('/prompt?searchParam=vendas');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, hasMore: false, prompts: [{ id: created.id }] });
    expect((await t.as(other.adminToken).get(`/prompt/${created.id}`)).statusCode).toBe(404);
    expect(
      (await t.as(other.adminToken).put(`/prompt/${created.id}`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await t.as(other.adminToken).delete(`/prompt/${created.id}`)).statusCode).toBe(404);
    expect((await t.as(other.adminToken).get('/prompt')).json().count).toBe(0);
  });

  it("sets its queue's prompt, and a queue it leaves stops naming it", async () => {
    const second = await t.make.queue(home.companyId, { name: 'Vendas IA' });
    const promptOf = async (queueId: number) =>
      (await t.as(home.adminToken).get(`/queue/${queueId}`)).json().promptId;
    const created = (await t.as(home.adminToken).post('/prompt', body({ name: 'Fila' }))).json();
    expect(await promptOf(home.queue.id)).toBe(created.id);
    const moved = await t.as(home.adminToken).put(`/prompt/${created.id}`, { queueId: second.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await promptOf(second.id)).toBe(created.id);
    expect(await promptOf(home.queue.id)).toBeNull();
    await t.as(home.adminToken).delete(`/prompt/${created.id}`);
  });

  it('deletes a prompt, and the queues that named it answer without one', async () => {
    const created = (await t.as(home.adminToken).post('/prompt', body({ name: 'Apagar' }))).json();
    await t.database.db
      .update(queues)
      .set({ promptId: created.id })
      .where(eq(queues.id, home.queue.id));
    const res = await t.as(home.adminToken).delete(`/prompt/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Prompt deleted' });
    const [queue] = await t.database.db.select().from(queues).where(eq(queues.id, home.queue.id));
    expect(queue!.promptId).toBeNull();
    expect(
      emittedOf(t, `company-${home.companyId}-prompt`).some(
        (p) => p.action === 'delete' && p.promptId === created.id,
      ),
    ).toBe(true);
  });
});

/** No bot turn waits or runs (the job engine's own table). */
async function turnsSettled() {
  await expect
    .poll(async () => {
      const { rows } = await t.database.pool.query(
        `select count(*)::int as n from pgboss.job where name = $1 and state < 'completed'`,
        [BOT_TURN_JOB],
      );
      return rows[0].n as number;
    })
    .toBe(0);
}

/** A connection (or its only queue) answered by a prompt, and a phone that writes to it. */
async function aiConversation(
  promptFields: Record<string, unknown> = {},
  on: 'connection' | 'queue' = 'connection',
) {
  const company = await aiCompany();
  const created = await t.as(company.adminToken).post('/prompt', {
    name: 'Padaria',
    prompt: PROMPT_TEXT,
    queueId: company.queue.id,
    apiKey: API_KEY,
    maxMessages: 4,
    ...promptFields,
  });
  expect(created.statusCode, created.body).toBe(200);
  const promptId = created.json().id as number;
  const connectionId = await pairedSimulator(t, company.adminToken, `IA ${++phoneSequence}`);
  if (on === 'connection') {
    const set = await t.as(company.adminToken).put(`/whatsapp/${connectionId}`, { promptId });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().promptId).toBe(promptId);
  } else {
    // What the queue dialog saves; answered back, and read back.
    const set = await t.as(company.adminToken).put(`/queue/${company.queue.id}`, { promptId });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().promptId).toBe(promptId);
    const read = await t.as(company.adminToken).get(`/queue/${company.queue.id}`);
    expect(read.json().promptId).toBe(promptId);
    // The only queue is entered at the first message.
    await t
      .as(company.adminToken)
      .put('/settings/sendGreetingMessageOneQueues', { value: 'enabled' });
    const offered = await t
      .as(company.adminToken)
      .put(`/whatsapp/${connectionId}`, { queueIds: [company.queue.id] });
    expect(offered.statusCode, offered.body).toBe(200);
  }
  const phone = `55119${String(60_000_000 + process.pid * 100 + ++phoneSequence).slice(-8)}`;
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
    (await phoneInbox(t, company.adminToken, connectionId, phone)).map((m) =>
      m.kind === 'audio' ? '(audio)' : m.body,
    );
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
  const calls = () => ai.completions.length;
  return { ...company, promptId, connectionId, phone, write, inbox, ticket, notes, calls };
}

describe('a conversation answered by a prompt', () => {
  it('answers from the model with the prompt as system text and the last messages', async () => {
    ai.reply = () => 'Bom dia! Temos pão francês quentinho.';
    const c = await aiConversation({ prompt: `${PROMPT_TEXT} #tag1#` });
    const before = ai.completions.length;
    await c.write('Bom dia, tem pão?');
    await expect
      .poll(c.inbox, { timeout: 10_000 })
      .toEqual(['Bom dia! Temos pão francês quentinho.']);
    await turnsSettled();
    const call = ai.completions.at(-1)!;
    expect(ai.completions.length).toBe(before + 1);
    expect(call.authorization).toBe(`Bearer ${API_KEY}`);
    expect(call.body).toMatchObject({ model: 'modelo-local', max_tokens: 100, temperature: 1 });
    expect(call.body.messages[0]).toMatchObject({ role: 'system' });
    expect(call.body.messages[0]!.content).toContain(PROMPT_TEXT);
    expect(call.body.messages[0]!.content).toContain(HANDOFF_MARKER);
    expect(call.body.messages.slice(1)).toEqual([{ role: 'user', content: 'Bom dia, tem pão?' }]);
    expect((await c.ticket()).promptId).toBe(c.promptId);

    // The next turn reads the conversation so far, the AI's answer as the assistant's.
    ai.reply = () => 'Abrimos às 6h.';
    await c.write('Que horas abrem?');
    await expect.poll(c.inbox, { timeout: 10_000 }).toHaveLength(2);
    expect(ai.completions.at(-1)!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Bom dia, tem pão?' },
      { role: 'assistant', content: 'Bom dia! Temos pão francês quentinho.' },
      { role: 'user', content: 'Que horas abrem?' },
    ]);
  });

  it('answers a burst of messages once', async () => {
    ai.reply = () => 'Recebi suas perguntas.';
    const c = await aiConversation();
    const before = ai.completions.length;
    await Promise.all([c.write('Oi'), c.write('Tudo bem?')]);
    await expect.poll(c.inbox, { timeout: 10_000 }).toEqual(['Recebi suas perguntas.']);
    await turnsSettled();
    expect(ai.completions.length).toBe(before + 1);
    const asked = ai.completions
      .at(-1)!
      .body.messages.slice(1)
      .map((m) => m.content);
    expect(asked.sort()).toEqual(['Oi', 'Tudo bem?']);
  });

  it('hands the ticket to a person when the answer asks for one, with a note saying why', async () => {
    ai.reply = () => `Vou chamar um atendente. ${HANDOFF_MARKER}`;
    const c = await aiConversation();
    await c.write('Quero falar com uma pessoa');
    await expect.poll(c.notes, { timeout: 10_000 }).toEqual([HANDOFF_NOTES.asked]);
    await expect.poll(c.inbox).toEqual(['Vou chamar um atendente.']);
    const ticket = await c.ticket();
    expect(ticket.aiHandedOverAt).not.toBeNull();
    expect(ticket.promptId).toBeNull();
    expect(ticket.status).toBe('pending');
    // From then on a person answers: the model is not asked again.
    const before = ai.completions.length;
    await c.write('Alô?');
    await turnsSettled();
    expect(ai.completions.length).toBe(before);
  });

  it('hands the ticket to a person when the provider fails', async () => {
    ai.reply = () => ({ status: 500 });
    const c = await aiConversation();
    await c.write('Olá');
    await expect.poll(c.notes, { timeout: 10_000 }).toEqual([HANDOFF_NOTES.failed]);
    expect(await c.inbox()).toEqual([]);
    expect((await c.ticket()).aiHandedOverAt).not.toBeNull();
  });

  it("keeps the provider's failure as the prompt's health, logs it without the key, and clears it on the next answer", async () => {
    ai.reply = () => ({ status: 401 });
    const c = await aiConversation({ apiKey: `${API_KEY}-refused` });
    const health = async () => {
      const read = (await t.as(c.adminToken).get(`/prompt/${c.promptId}`)).json();
      return { lastError: read.lastError, at: read.lastErrorAt !== null };
    };
    expect(await health()).toEqual({ lastError: null, at: false });
    await c.write('Olá');
    await expect.poll(c.notes, { timeout: 10_000 }).toEqual([HANDOFF_NOTES.failed]);
    expect(await health()).toEqual({ lastError: 'keyRefused', at: true });
    expect(
      emittedOf(t, `company-${c.companyId}-prompt`).some(
        (p) =>
          p.action === 'update' && (p.prompt as { lastError: string }).lastError === 'keyRefused',
      ),
    ).toBe(true);
    const logged = logLines.filter((line) => line.includes('AI prompt could not answer'));
    expect(logged.some((line) => line.includes(`"promptId":${c.promptId}`))).toBe(true);
    expect(logLines.join('\n')).not.toContain(API_KEY);

    // A new key and a provider that answers: the health is clear again.
    ai.reply = () => 'Pronto, agora funciono.';
    await t.as(c.adminToken).put(`/prompt/${c.promptId}`, { apiKey: API_KEY });
    await t.database.db
      .update(tickets)
      .set({ aiHandedOverAt: null })
      .where(eq(tickets.companyId, c.companyId));
    await c.write('Oi de novo');
    await expect.poll(c.inbox, { timeout: 10_000 }).toEqual(['Pronto, agora funciono.']);
    await expect.poll(health).toEqual({ lastError: null, at: false });
  });

  it('stops at the hourly limit of completions per ticket (cost guard)', async () => {
    ai.reply = () => 'Certo.';
    const c = await aiConversation();
    for (let i = 1; i <= HOURLY_LIMIT; i++) {
      await c.write(`Pergunta ${i}`);
      await expect.poll(c.inbox, { timeout: 10_000 }).toHaveLength(i);
      await turnsSettled();
    }
    await c.write('Mais uma');
    await expect.poll(c.notes, { timeout: 10_000 }).toEqual([HANDOFF_NOTES.limit]);
    expect(await c.inbox()).toHaveLength(HOURLY_LIMIT);
  });

  it('answers in a queue whose prompt is chosen, once the contact is in that queue', async () => {
    ai.reply = () => 'Temos bolo de cenoura hoje.';
    const c = await aiConversation({}, 'queue');
    const before = ai.completions.length;
    await c.write('Oi');
    await expect.poll(async () => (await c.ticket()).queueId, { timeout: 10_000 }).toBe(c.queue.id);
    await turnsSettled();
    const greeted = (await c.inbox()).length;
    await c.write('Tem bolo hoje?');
    await expect
      .poll(async () => (await c.inbox()).slice(greeted), { timeout: 10_000 })
      .toEqual(['Temos bolo de cenoura hoje.']);
    await turnsSettled();
    const call = ai.completions.at(-1)!;
    expect(call.body.messages[0]!.content).toContain(PROMPT_TEXT);
    expect(call.body.messages.at(-1)).toEqual({ role: 'user', content: 'Tem bolo hoje?' });
    // the message that entered the queue was the menu's; the next one the AI's
    expect(ai.completions.length).toBe(before + 1);
    expect((await c.ticket()).promptId).toBe(c.promptId);
  });

  it('speaks the answer too with a neural voice, after sending the text', async () => {
    ai.reply = () => 'Seu pedido está pronto.';
    const c = await aiConversation({
      voice: 'pt-BR-FranciscaNeural',
      voiceKey: 'azure-key-abcdef123456',
      voiceRegion: 'brazilsouth',
    });
    await c.write('Meu pedido?');
    await expect.poll(c.inbox, { timeout: 10_000 }).toEqual(['Seu pedido está pronto.', '(audio)']);
    const speech = ai.speeches.at(-1)!;
    expect(speech).toMatchObject({ region: 'brazilsouth', key: 'azure-key-abcdef123456' });
    expect(speech.ssml).toContain('name="pt-BR-FranciscaNeural"');
    expect(speech.ssml).toContain('Seu pedido está pronto.');
  });
});
