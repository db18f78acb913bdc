import { expect, test } from '@playwright/test';
import { API, api, expectAccessible, shot, signIn, simulatorPhone, tokenOf } from '../support';

const stamp = String(Date.now());
const NAME = `Pedidos ${stamp.slice(-6)}`;
const RENAMED = `Pedidos ERP ${stamp.slice(-6)}`;
const SECRET = `assinatura-${stamp}-QRST`;
// The journeys' server does not allow private targets (no OUTBOUND_ALLOW_PRIVATE): a receiver
// on this machine is refused, and the refusal is what the admin is shown.
const RECEIVER = 'http://127.0.0.1:9/atendimento';
const PHONE = `55117${stamp.slice(-8)}`;
const CONTACT = 'Cliente do Webhook';

test.slow();

test('queue integrations: a webhook with its fields, its test refused clearly, its delivery log, edited and deleted', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  await page.goto('/queue-integration');
  await expect(page.getByRole('heading', { name: 'Integrações' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Adicionar Integração' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar Integração' });

  // Each type shows its own fields: Typebot first, then DialogFlow, then the webhook's.
  await expect(dialog.getByLabel('Typebot - Slug')).toBeVisible();
  await expect(dialog.getByLabel('URL do Typebot')).toBeVisible();
  await dialog.getByLabel('Tipo').click();
  await page.getByRole('option', { name: 'DialogFlow' }).click();
  await expect(dialog.getByLabel('Nome do Projeto')).toBeVisible();
  await expect(dialog.getByLabel('Linguagem')).toBeVisible();
  await expect(dialog.getByLabel('JsonContent')).toBeVisible();
  await expect(dialog.getByLabel('Typebot - Slug')).toHaveCount(0);
  await dialog.getByLabel('Tipo').click();
  await page.getByRole('option', { name: 'WebHooks' }).click();
  await expect(dialog.getByLabel('Nome do Projeto')).toHaveCount(0);
  await expect(dialog.getByLabel('Typebot - Slug')).toHaveCount(0);
  await dialog.getByLabel('Nome', { exact: true }).fill(NAME);
  await dialog.getByLabel('URL do Webhook').fill(RECEIVER);
  await dialog.getByLabel('Segredo da assinatura').fill(SECRET);

  // The test posts a signed sample to the URL: a private address is refused, and said so.
  await dialog.getByRole('button', { name: 'Testar Bot' }).click();
  const outcome = dialog.getByRole('status').filter({ hasText: 'A integração não respondeu' });
  await expect(outcome).toBeVisible();
  await expect(outcome).toContainText(
    'Este endereço não pode ser usado: ele aponta para uma rede interna ou traz usuário e senha.',
  );
  await expect(outcome).not.toContainText('refused');
  await expectAccessible(page, '[role="dialog"]');
  await shot(page, 'integrations-01-test-refused');

  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByText('Integração salva com sucesso.')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: NAME });
  await expect(row.getByRole('cell', { name: 'WebHooks' })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'integrations-02-list');

  // The signing secret is answered as a hint only.
  const token = await tokenOf(page);
  const listed = await request.get(`${API}/queueIntegration?searchParam=${stamp.slice(-6)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(listed.ok()).toBe(true);
  const answer = await listed.text();
  expect(answer).not.toContain(SECRET);
  const { queueIntegrations } = JSON.parse(answer) as {
    queueIntegrations: { id: number; type: string; urlN8N: string; secret: string | null }[];
  };
  expect(queueIntegrations).toHaveLength(1);
  const [integration] = queueIntegrations;
  expect(integration).toMatchObject({ type: 'webhook', urlN8N: RECEIVER, secret: '••••QRST' });

  // Nothing delivered yet.
  await row.getByRole('button', { name: `Entregas de ${NAME}` }).click();
  let log = page.getByRole('dialog', { name: `Entregas de ${NAME}` });
  await expect(log.getByText('Nenhuma entrega ainda')).toBeVisible();
  await log.getByRole('button', { name: 'Fechar' }).click();
  await expect(log).toBeHidden();

  // Attached to the simulator connection, a message from a phone is an event to deliver: the
  // refused receiver shows in the log as a failed delivery with its reason (no retries).
  const phone = await simulatorPhone(page, context, PHONE);
  const connections = await api<{ id: number; provider: string }[]>(
    request,
    token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((connection) => connection.provider === 'simulator')!;
  await api(request, token, 'PUT', `/whatsapp/${simulator.id}`, {
    integrationId: integration!.id,
  });
  try {
    await phone.send({ name: CONTACT, body: 'Quero saber do meu pedido' });
    await page.goto('/queue-integration');
    await page.getByRole('button', { name: `Entregas de ${NAME}` }).click();
    log = page.getByRole('dialog', { name: `Entregas de ${NAME}` });
    const delivery = log.getByRole('row').filter({ hasText: 'message.received' });
    await expect(delivery).toBeVisible({ timeout: 20_000 });
    await expect(delivery.getByText('Falhou')).toBeVisible();
    // what it means, in Portuguese; the guard's own words stay below it for support
    await expect(delivery).toContainText(
      'Endereço recusado: a URL aponta para uma rede interna ou traz usuário e senha.',
    );
    await expect(delivery.getByText(/^Detalhe técnico: .*private address/)).toBeVisible();
    await expect(delivery.getByRole('cell', { name: '1', exact: true })).toBeVisible();
    await expectAccessible(page, '[role="dialog"]');
    await shot(page, 'integrations-03-deliveries');
    await log.getByRole('button', { name: 'Fechar' }).click();
  } finally {
    await api(request, token, 'PUT', `/whatsapp/${simulator.id}`, { integrationId: null });
  }

  // Edited: the stored secret is kept when its hint is sent back.
  await page.getByRole('button', { name: `Editar ${NAME}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Integração' });
  await expect(edit.getByLabel('URL do Webhook')).toHaveValue(RECEIVER);
  await expect(edit.getByLabel('Segredo da assinatura')).toHaveValue('••••QRST');
  expect(await page.content()).not.toContain(SECRET);
  await edit.getByLabel('Nome', { exact: true }).fill(RENAMED);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  const renamed = page.getByRole('row').filter({ hasText: RENAMED });
  await expect(renamed).toBeVisible();
  const saved = await api<{ name: string; projectName: string; secret: string | null }>(
    request,
    token,
    'GET',
    `/queueIntegration/${integration!.id}`,
  );
  // for webhooks the project name follows the name
  expect(saved).toMatchObject({ name: RENAMED, projectName: RENAMED, secret: '••••QRST' });

  await renamed.getByRole('button', { name: `Excluir ${RENAMED}` }).click();
  await page
    .getByRole('dialog', { name: `Excluir ${RENAMED}?` })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Integração excluída com sucesso.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: RENAMED })).toHaveCount(0);
  const gone = await request.get(`${API}/queueIntegration/${integration!.id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(gone.status()).toBe(404);
  await shot(page, 'integrations-04-deleted');
});
