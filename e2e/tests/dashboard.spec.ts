import { expect, type Page, test } from '@playwright/test';
import { api, expectAccessible, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now()).slice(-6);

interface Figures {
  counters: Record<string, number>;
  attendants: { name: string; tickets: number; online: boolean }[];
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A select by its label (its accessible name goes on with its value). */
const select = (page: Page, label: string) =>
  page.getByRole('combobox', { name: new RegExp(`^${label}`) });

async function choose(page: Page, label: string, option: string) {
  await select(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(select(page, label)).toHaveText(option);
}

/** The page shows no more than the screen is wide. */
async function expectNoSideScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test('dashboard: the demo admin lands on the figures, switches filter and period', async ({
  page,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  // Today's work: a new contact whose conversation the admin took and finished.
  const contact = await api<{ id: number }>(request, token, 'POST', '/contacts', {
    name: `Painel ${stamp}`,
    number: `5511977${stamp}`,
  });
  const ticket = await api<{ id: number }>(request, token, 'POST', '/tickets', {
    contactId: contact.id,
    status: 'open',
  });
  await api(request, token, 'PUT', `/tickets/${ticket.id}`, { status: 'closed' });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // It starts on the month so far, by date.
  await expect(page.getByRole('combobox', { name: 'Tipo de filtro' })).toHaveText(
    'Filtro por data',
  );
  await expect(page.getByLabel('Data inicial')).toHaveValue(/^\d{4}-\d{2}-01$/);
  await expect(card(page, 'Finalizados')).not.toContainText('–');

  await choose(page, 'Tipo de filtro', 'Filtro por período');
  await expect(page.getByRole('alert')).toHaveText('Parametrize o filtro');
  await choose(page, 'Período', 'Últimos 7 dias');
  await expect(page.getByRole('alert')).toHaveCount(0);

  const figures = await api<Figures>(request, token, 'GET', '/dashboard?days=7');
  expect(figures.counters.supportFinished).toBeGreaterThanOrEqual(1);
  expect(figures.counters.leads).toBeGreaterThanOrEqual(1);
  for (const [name, key] of [
    ['Em Conversa', 'supportHappening'],
    ['Aguardando', 'supportPending'],
    ['Finalizados', 'supportFinished'],
    ['Novos Contatos', 'leads'],
  ] as const) {
    await expect(card(page, name)).toContainText(String(figures.counters[key]));
  }
  await expect(card(page, 'T.M. de Conversa')).toContainText(/\d+m/);
  await expect(card(page, 'T.M. de Espera')).toContainText(/\d+m/);

  const admin = page
    .getByRole('table', { name: 'Atendentes' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Admin', exact: true }) });
  await expect(admin).toContainText('Online');
  const adminFigures = figures.attendants.find((attendant) => attendant.name === 'Admin')!;
  await expect(admin.getByRole('cell').nth(1)).toHaveText(String(adminFigures.tickets));

  const perUser = page.getByRole('figure', { name: 'Conversas por usuário' });
  await expect(perUser.locator('.recharts-bar-rectangle').first()).toBeVisible();
  const perDay = page.getByRole('figure', { name: 'Tickets por dia' });
  // The same seven days on the company's clock (the demo keeps the default, São Paulo).
  const day = (back: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
      Date.now() - back * 86_400_000,
    );
  const week = await api<{ count: number }>(
    request,
    token,
    'GET',
    `/dashboard/ticketsDay?initialDate=${day(6)}&finalDate=${day(0)}`,
  );
  await expect(perDay).toContainText(`Total (${week.count})`);
  await expect(perDay.locator('.recharts-line-curve')).toBeVisible();

  await shot(page, 'dashboard-desktop');
  await perDay.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-desktop-charts');
  await expectAccessible(page);

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(card(page, 'Finalizados')).toBeVisible();
  await expectNoSideScroll(page);
  await shot(page, 'dashboard-phone');
  await page.getByRole('table', { name: 'Atendentes' }).scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-phone-attendants');
  await expectAccessible(page);
  await perUser.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-phone-charts');
});

test('to-do list: adds, edits and deletes a task, kept after a reload', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/todolist');
  const field = page.getByRole('textbox', { name: 'Nova tarefa' });
  const list = page.getByRole('list', { name: 'Lista de tarefas' });

  await field.fill('   ');
  await field.press('Enter');
  await expect(page.getByText('Nenhuma tarefa')).toBeVisible();

  await field.fill(`Ligar para o cliente ${stamp}`);
  await field.press('Enter');
  await field.fill('Enviar proposta');
  await page.getByRole('button', { name: 'Adicionar' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Editar tarefa: Enviar proposta' }).click();
  await expect(field).toBeFocused();
  await field.fill('Enviar proposta revisada');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(list).toContainText('Enviar proposta revisada');

  await page.getByRole('button', { name: `Excluir tarefa: Ligar para o cliente ${stamp}` }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expectAccessible(page);
  await shot(page, 'todolist-phone');

  await page.reload();
  await expect(
    page.getByRole('list', { name: 'Lista de tarefas' }).getByRole('listitem'),
  ).toHaveText([/Enviar proposta revisada/]);
  await expectNoSideScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'todolist-desktop');
});
