import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { acceptWaiting, api, pairSimulator, phoneWrites, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const PHONE = `55113${stamp.slice(-8)}`;
const CONTACT = `Cliente IA ${stamp.slice(-4)}`;
const NAME = `Atendente virtual ${stamp}`;
const KEY = `sk-e2e-${stamp}-answers-KEYZ`;
const PROMPT = `Você é a atendente virtual da loja ${stamp}. Responda em uma frase.`;
const QUESTION = `Qual o prazo de entrega para Campinas? ${stamp}`;
const ASK_PERSON = `Prefiro falar com um atendente ${stamp}`;
/** What the journeys' model answers (e2e/global-setup.ts). */
const ANSWER = `Assistente virtual: já verifico isso para você (${stamp}).`;
const HANDING_OVER = 'Certo, vou chamar uma pessoa da equipe para continuar.';
const NOTE = 'A IA transferiu o atendimento para um atendente: o cliente pediu uma pessoa.';

interface ModelCall {
  authorization: string;
  body: { model: string; messages: { role: string; content: string }[] };
}

/** What the model was asked about this journey's conversation, in order. */
function modelCalls(): ModelCall[] {
  const folder = process.env.E2E_AI_CALLS!;
  return readdirSync(folder)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as ModelCall)
    .filter((call) => call.body.messages.some((message) => message.content.includes(stamp)));
}

// It pairs the simulator (or finds it paired), saves two dialogs and waits for two AI turns;
// on a busy machine a click can take seconds.
test.setTimeout(360_000);

/** What to undo afterwards, even when the journey fails half-way. */
const cleanup: { token?: string; connectionId?: number } = {};

test.afterAll(async ({ request }) => {
  // the simulator is shared by the journeys after this one: it answers without a prompt again
  if (cleanup.token && cleanup.connectionId) {
    await api(request, cleanup.token, 'PUT', `/whatsapp/${cleanup.connectionId}`, {
      promptId: null,
    });
  }
});

test('AI answers: a prompt on the connection answers the contact, then hands over to a person when asked', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  // The admin writes the prompt for the Suporte sector ...
  await page.goto('/prompts');
  await page.getByRole('button', { name: 'Adicionar Prompt' }).click();
  const promptDialog = page.getByRole('dialog', { name: 'Adicionar Prompt' });
  await promptDialog.getByLabel('Nome').fill(NAME);
  await promptDialog.getByLabel('API Key').fill(KEY);
  await promptDialog.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await promptDialog.getByLabel('Setor/Fila').click();
  await page.getByRole('option', { name: 'Suporte' }).click();
  await promptDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByText('Prompt salvo com sucesso!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: NAME })).toBeVisible();

  // ... and has it answer the simulator connection's conversations.
  const connections = await api<{ id: number; name: string; promptId: number | null }[]>(
    request,
    token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((connection) => connection.name === 'Simulador')!;
  expect(simulator.promptId).toBeNull();
  cleanup.token = token;
  cleanup.connectionId = simulator.id;
  await page.goto('/connections');
  await page.getByRole('button', { name: 'Editar Simulador' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar WhatsApp' });
  await edit.getByRole('combobox', { name: 'Prompt' }).click();
  await page.getByRole('option', { name: NAME }).click();
  await expect(edit.getByRole('combobox', { name: 'Prompt' })).toHaveText(NAME);
  await edit.getByRole('combobox', { name: 'Prompt' }).scrollIntoViewIfNeeded();
  await shot(page, 'ai-01-connection-prompt');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Conexão salva com sucesso!')).toBeVisible();
  await expect(edit).toBeHidden();
  const saved = await api<{ promptId: number | null }>(
    request,
    token,
    'GET',
    `/whatsapp/${simulator.id}`,
  );
  expect(saved.promptId).not.toBeNull();

  // A contact asks; the AI's answer reaches the phone ...
  const log = await phoneWrites(phone, PHONE, CONTACT, QUESTION);
  await expect(log.getByRole('listitem').filter({ hasText: ANSWER })).toBeVisible({
    timeout: 30_000,
  });
  await shot(phone, 'ai-02-phone-answered');

  // ... and the conversation, which waits with the AI answering it (no agent took it).
  await page.goto('/tickets');
  await page.getByRole('tab', { name: /^Aguardando \d+$/ }).click();
  const item = page
    .getByRole('list', { name: 'Aguardando' })
    .getByTestId('ticket-item')
    .filter({ hasText: CONTACT });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await item.getByRole('button', { name: `Mais ações para ${CONTACT}` }).click();
  await page.getByRole('menuitem', { name: 'Espiar Conversa' }).click();
  const spy = page.getByRole('dialog', { name: `Espiar Conversa - ${CONTACT}` });
  const spied = spy.getByRole('list', { name: 'Mensagens' });
  await expect(spied).toContainText(QUESTION);
  await expect(spied).toContainText(ANSWER);
  await shot(page, 'ai-03-conversation-answered');
  await spy.getByRole('button', { name: 'Fechar' }).click();
  await expect(spy).toBeHidden();

  // The model got the prompt, the key and the contact's words.
  const [first] = modelCalls();
  expect(first?.authorization).toBe(`Bearer ${KEY}`);
  expect(first?.body.messages[0]?.role).toBe('system');
  expect(first?.body.messages[0]?.content).toContain(PROMPT);
  expect(first?.body.messages.at(-1)).toEqual({ role: 'user', content: QUESTION });

  // The contact asks for a person: the AI says so and lets go of the ticket.
  await phone.getByLabel(`Mensagem de ${CONTACT}`).fill(ASK_PERSON);
  await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(log.getByRole('listitem').filter({ hasText: HANDING_OVER })).toBeVisible({
    timeout: 30_000,
  });
  // the marker is for the product, never for the contact
  await expect(log).not.toContainText('#ATENDENTE#');
  await shot(phone, 'ai-04-phone-handed-over');
  const calls = modelCalls();
  expect(calls).toHaveLength(2);
  // the second turn read the conversation so far, the AI's own answer included
  expect(calls[1]!.body.messages.slice(1)).toEqual([
    { role: 'user', content: QUESTION },
    { role: 'assistant', content: ANSWER },
    { role: 'user', content: ASK_PERSON },
  ]);

  // An agent takes it: the conversation has it all, and the ticket's note says why.
  const { conversation, messages } = await acceptWaiting(page, CONTACT);
  await expect(messages).toContainText(ANSWER, { timeout: 30_000 });
  await expect(messages).toContainText(HANDING_OVER);
  await conversation.getByTitle(`Dados do contato ${CONTACT}`).click();
  const drawer = page.getByRole('presentation').filter({ hasText: 'Observações' });
  await expect(drawer.getByRole('list', { name: 'Observações' })).toContainText(NOTE);
  await shot(page, 'ai-05-handed-over-note');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // From here a person answers.
  const input = conversation.getByRole('textbox', { name: 'Mensagem' });
  await input.fill(`Olá, sou a Ana e vou te ajudar ${stamp}`);
  await input.press('Enter');
  await expect(
    log.getByRole('listitem').filter({ hasText: `sou a Ana e vou te ajudar ${stamp}` }),
  ).toBeVisible({ timeout: 20_000 });
  await conversation.getByRole('button', { name: 'Resolver' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await phone.close();
});
