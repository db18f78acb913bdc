import { expect, test } from '@playwright/test';
import { api, expectAccessible, pairSimulator, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now()).slice(-6);
const LIST = `Campanha lista ${stamp}`;
const CAMPAIGN = `Ofertas ${stamp}`;
const PHONES = [`5511955${stamp}`, `5511966${stamp}`];

/** Yesterday at 10:00 as a datetime-local input takes it: due whatever the clocks' zones. */
function yesterdayAtTen() {
  const date = new Date(Date.now() - 86_400_000);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T10:00`;
}

test.slow();

test('campaigns: settings, a campaign to a list, sent to every phone, its report finished', async ({
  page,
  context,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);
  await phone.close();
  // The list (its own journey covers the import): two people.
  const list = await api<{ id: number }>(page.request, token, 'POST', '/contact-lists', {
    name: LIST,
  });
  for (const [i, number] of PHONES.entries()) {
    await api(page.request, token, 'POST', '/contact-list-items', {
      name: `Pessoa${i} Teste`,
      number,
      contactListId: list.id,
    });
  }

  // Settings: no pause between sends, a variable of the company (a repeated key is ignored).
  await page.goto('/campaigns-config');
  await expect(page.getByRole('heading', { name: 'Configurações de campanhas' })).toBeVisible({
    timeout: 30_000,
  });
  for (const label of [
    'Intervalo randômico de disparo',
    'Intervalo maior após',
    'Intervalo de disparo maior',
  ]) {
    await page.getByLabel(label).click();
    await page.getByRole('option', { name: 'Não definido' }).click();
  }
  for (const value of ['Loja Centro', 'Outra loja']) {
    await page.getByLabel('Atalho').fill('loja');
    await page.getByLabel('Conteúdo').fill(value);
    await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
  }
  await expect(page.getByRole('button', { name: 'Remover loja' })).toHaveCount(1);
  await expect(page.getByRole('cell', { name: 'Loja Centro' })).toBeVisible();
  await page.getByRole('button', { name: 'Salvar configurações' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await shot(page, 'campaigns-01-settings');

  // The campaign: its list, the simulator, a date already past.
  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Nova campanha' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova campanha' });
  await dialog.getByLabel('Nome').fill(CAMPAIGN);
  await dialog.getByLabel('Lista de contatos').click();
  await page.getByRole('option', { name: LIST }).click();
  await dialog.getByLabel('Conexão').click();
  await page
    .getByRole('option', { name: /Simulador/ })
    .first()
    .click();
  await dialog.getByLabel('Agendamento').fill(yesterdayAtTen());
  await dialog.getByLabel('Mensagem 1').fill('Olá {{contactFirstName}}, novidades da {{loja}}!');
  await shot(page, 'campaigns-02-dialog');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: CAMPAIGN });
  await expect(row).toContainText(LIST);
  await expect(row).toContainText('Finalizada', { timeout: 60_000 });
  await expectAccessible(page);
  await shot(page, 'campaigns-03-list');

  // The report: every valid contact reached.
  await row.getByRole('button', { name: `Relatório de ${CAMPAIGN}` }).click();
  await expect(page).toHaveURL(/\/campaign\/\d+\/report$/);
  await expect(page.getByRole('heading', { name: `Relatório da ${CAMPAIGN}` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Finalizada: 2 de 2 entregues')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await shot(page, 'campaigns-04-report');

  // Each phone got the message, filled in.
  const connections = await api<{ id: number; provider: string }[]>(
    page.request,
    token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((c) => c.provider === 'simulator')!;
  for (const [i, number] of PHONES.entries()) {
    const got = await api<{ direction: string; body: string }[]>(
      page.request,
      token,
      'GET',
      `/simulator/connections/${simulator.id}/phones/${number}/messages`,
    );
    expect(got.filter((m) => m.direction === 'outbound').map((m) => m.body)).toEqual([
      `Olá Pessoa${i}, novidades da Loja Centro!`,
    ]);
  }
});
