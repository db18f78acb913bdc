import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { API, api, expectAccessible, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now()).slice(-6);

/** A select of the Opções tab by its label, and the option chosen in it. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByText('Operação atualizada com sucesso.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: label })).toHaveText(option);
}

const day = (page: Page, name: string) => page.getByRole('group', { name, exact: true });

/** The demo admin's token and company, through the API. */
async function demoAdmin(request: APIRequestContext) {
  const login = await request.post(`${API}/auth/login`, {
    data: { email: 'admin@admin.com', password: '123456' },
  });
  return (await login.json()) as { token: string; user: { companyId: number } };
}

// The journeys share one company: what this one changes is put back, whatever happened.
let before: { settings: { key: string; value: string }[]; schedules: unknown[] } | undefined;

test.beforeAll(async ({ request }) => {
  const { token, user } = await demoAdmin(request);
  const settings = await api<{ key: string; value: string }[]>(request, token, 'GET', '/settings');
  const company = await api<{ schedules: unknown[] }>(
    request,
    token,
    'GET',
    `/companies/${user.companyId}`,
  );
  before = { settings, schedules: company.schedules };
});

test.afterAll(async ({ request }) => {
  if (!before) return;
  const { token, user } = await demoAdmin(request);
  for (const key of ['userRating', 'scheduleType']) {
    const value = before.settings.find((setting) => setting.key === key)?.value;
    if (value) await api(request, token, 'PUT', `/settings/${key}`, { value });
  }
  await api(request, token, 'PUT', `/companies/${user.companyId}/schedules`, {
    schedules: before.schedules,
  });
});

test('settings: an admin changes options, moves the hours to the company and edits them', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Configurações' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Opções', selected: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Horários' })).toHaveCount(0);

  await choose(page, 'Avaliações', 'Habilitadas');
  await choose(page, 'Gerenciamento de Expediente', 'Empresa');
  await expect(page.getByRole('tab', { name: 'Horários' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Fuso horário' })).toHaveValue(
    /^America\/Sao Paulo/,
  );
  await expectAccessible(page);
  await shot(page, 'settings-options');

  // kept by the server: a reload shows them
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Avaliações' })).toHaveText('Habilitadas');
  await expect(page.getByRole('combobox', { name: 'Gerenciamento de Expediente' })).toHaveText(
    'Empresa',
  );

  await page.getByRole('tab', { name: 'Horários' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=schedules$/);
  const saturdayEnd = day(page, 'Sábado').getByLabel('Fim');
  await expect(saturdayEnd).toHaveValue('12:00');
  await expect(day(page, 'Domingo').getByText('(Fechado)')).toBeVisible();
  // typed digits only: the mask adds the colon
  await saturdayEnd.fill('');
  await saturdayEnd.pressSequentially('1330');
  await expect(saturdayEnd).toHaveValue('13:30');
  // a time that is not one is marked and nothing is sent
  const mondayStart = day(page, 'Segunda-feira').getByLabel('Início');
  await mondayStart.fill('25');
  await mondayStart.blur();
  await expect(day(page, 'Segunda-feira').getByText('Hora inválida (HH:MM)')).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'settings-hours-invalid');
  await mondayStart.fill('0800');
  await expect(day(page, 'Segunda-feira').getByText('Hora inválida (HH:MM)')).toBeHidden();
  await page.getByRole('button', { name: 'Salvar horários' }).click();
  await expect(page.getByText('Horários atualizados com sucesso.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Horários', selected: true })).toBeVisible();
  await expect(day(page, 'Sábado').getByLabel('Fim')).toHaveValue('13:30');
  await expect(day(page, 'Segunda-feira').getByLabel('Início')).toHaveValue('08:00');
  await shot(page, 'settings-hours');

  // on a phone the same screens fit the width
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(day(page, 'Sábado').getByLabel('Fim')).toHaveValue('13:30');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'settings-hours-phone');
  await page.getByRole('tab', { name: 'Opções' }).click();
  await expect(page.getByRole('combobox', { name: 'Avaliações' })).toHaveText('Habilitadas');
  await shot(page, 'settings-options-phone');
});

test('settings: a plain user cannot reach the page', async ({ page, browser }) => {
  await signIn(page);
  const token = await tokenOf(page);
  const email = `plain.${stamp}@empresa.com`;
  await api(page.request, token, 'POST', '/users', {
    name: `Plain${stamp}`,
    email,
    password: 'segredo1',
    profile: 'user',
  });
  const context = await browser.newContext();
  const agent = await context.newPage();
  await agent.goto('/login');
  await agent.getByLabel('Email').fill(email);
  await agent.getByLabel('Senha').fill('segredo1');
  await agent.getByRole('button', { name: 'Entrar' }).click();
  await expect(agent).toHaveURL(/\/tickets$/);
  await expect(agent.getByRole('link', { name: 'Configurações' })).toHaveCount(0);

  await agent.goto('/settings');
  await expect(agent).toHaveURL(/\/tickets$/);
  await expect(agent.getByRole('heading', { name: 'Configurações' })).toHaveCount(0);
  await expect(agent.getByRole('combobox', { name: 'Avaliações' })).toHaveCount(0);
  await context.close();
});
