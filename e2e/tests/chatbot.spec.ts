import { expect, test } from '@playwright/test';
import {
  addQueueOption,
  api,
  newCompanyAdmin,
  pairSimulator,
  phoneWrites,
  shot,
  tokenOf,
} from '../support';

const stamp = String(Date.now()).slice(-8);
const CONTACT = { number: `55479${stamp}`, name: 'Cliente do Bot' };

test("a new company's chatbot walks a contact from the simulator into the queue whose agent sees it", async ({
  page,
  context,
  browser,
}) => {
  await newCompanyAdmin(page, 'Empresa do Bot');
  const token = await tokenOf(page);

  // The queue, built on its page: greeting, opening hours and a menu.
  await page.goto('/queues');
  await page.getByRole('button', { name: 'Adicionar fila' }).click();
  const create = page.getByRole('dialog', { name: 'Adicionar fila' });
  await create.getByLabel('Nome').fill('Vendas');
  await create.getByLabel('Cor', { exact: true }).fill('#2e7d32');
  await create.getByLabel('Ordem da fila (bot)').fill('1');
  await create.getByLabel('Mensagem de saudação').fill('Bem-vindo às Vendas!');
  await create.getByRole('tab', { name: 'Horários' }).click();
  const saturday = create.getByRole('group', { name: 'Sábado' });
  await saturday.getByLabel('Fim').fill('1330');
  await expect(saturday.getByLabel('Fim')).toHaveValue('13:30');
  await shot(page, 'chatbot-01-queue-hours');
  await create.getByRole('button', { name: 'Adicionar' }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'Vendas' });
  await row.getByRole('button', { name: 'Editar Vendas' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar fila' });
  await edit.getByRole('tab', { name: 'Opções do chatbot' }).click();
  await addQueueOption(page, null, {
    title: 'Planos',
    message: 'Um consultor já vem falar dos planos.',
  });
  await addQueueOption(page, null, { title: 'Pedidos', message: 'Informe o número do pedido.' });
  await edit.getByRole('tab', { name: 'Horários' }).click();
  await expect(edit.getByRole('group', { name: 'Sábado' }).getByLabel('Fim')).toHaveValue('13:30');
  await edit.getByRole('button', { name: 'Cancelar', exact: true }).click();

  // A second queue, an agent of Vendas, and a simulator connection offering both queues.
  const financeiro = await api<{ id: number }>(page.request, token, 'POST', '/queue', {
    name: 'Financeiro',
    color: '#6a1b9a',
    orderQueue: 2,
  });
  const queues = await api<{ id: number; name: string }[]>(page.request, token, 'GET', '/queue');
  const vendas = queues.find((queue) => queue.name === 'Vendas')!;
  const agentEmail = `vendas.${stamp}@example.com`;
  await api(page.request, token, 'POST', '/users', {
    name: 'Vera Vendas',
    email: agentEmail,
    password: 'segredo1',
    profile: 'user',
    queueIds: [vendas.id],
  });
  await api(page.request, token, 'POST', '/whatsapp', {
    name: 'Simulador',
    provider: 'simulator',
    greetingMessage: '{{greeting}}! Somos a Empresa do Bot. Escolha um setor:',
    queueIds: [vendas.id, financeiro.id],
  });
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  // The contact writes and walks the menu.
  const log = await phoneWrites(phone, CONTACT.number, CONTACT.name, 'Oi');
  const received = log.getByRole('listitem');
  await expect(received.filter({ hasText: 'Somos a Empresa do Bot' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(received.filter({ hasText: 'Financeiro' })).toBeVisible();
  const answer = async (text: string) => {
    await phone.getByLabel(`Mensagem de ${CONTACT.name}`).fill(text);
    await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  };
  await answer('1');
  await expect(received.filter({ hasText: 'Bem-vindo às Vendas!' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(received.filter({ hasText: 'Pedidos' })).toBeVisible();
  await answer('1');
  await expect(received.filter({ hasText: 'Um consultor já vem falar dos planos.' })).toBeVisible({
    timeout: 20_000,
  });
  await shot(phone, 'chatbot-02-phone');

  // The agent of Vendas finds the contact waiting in Vendas.
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await agentPage.goto('/login');
  await agentPage.getByLabel('Email').fill(agentEmail);
  await agentPage.getByLabel('Senha').fill('segredo1');
  await agentPage.getByRole('button', { name: 'Entrar' }).click();
  await expect(agentPage).toHaveURL(/\/tickets$/);
  await agentPage.getByRole('tab', { name: /^Aguardando \d+$/ }).click();
  const item = agentPage
    .getByRole('list', { name: 'Aguardando' })
    .getByTestId('ticket-item')
    .filter({ hasText: CONTACT.name });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item.getByText('Vendas')).toBeVisible();
  await shot(agentPage, 'chatbot-03-agent-waiting');
  await agentContext.close();
});
