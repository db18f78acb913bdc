import { expect, test } from '@playwright/test';
import { expectAccessible, newCompanyAdmin, shot, signIn } from '../support';

const stamp = String(Date.now()).slice(-6);

test('administration: the super user creates a plan, a company and a help video, which /helps plays', async ({
  page,
}) => {
  // three forms, two accessibility checks and a phone: long on a busy machine
  test.slow();
  await signIn(page);
  await page.goto('/settings?tab=plans');
  // a first visit loads the screen's code and words: slow on a busy machine
  await expect(page.getByRole('tab', { name: 'Planos', selected: true })).toBeVisible({
    timeout: 60_000,
  });

  // a plan with its limits, value and two features
  const planName = `Plano Ouro ${stamp}`;
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const planDialog = page.getByRole('dialog', { name: 'Novo plano' });
  await planDialog.getByLabel('Nome').fill(planName);
  await planDialog.getByLabel('Usuários').fill('8');
  await planDialog.getByLabel('Conexões').fill('2');
  await planDialog.getByLabel('Filas').fill('4');
  await planDialog.getByLabel('Valor').fill('149.9');
  await planDialog.getByRole('switch', { name: 'Kanban' }).check();
  await planDialog.getByRole('switch', { name: 'Campanhas' }).check();
  await expectAccessible(page, '[role="dialog"]');
  await planDialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByText('Operação realizada com sucesso!')).toBeVisible();
  const planRow = page.getByRole('row').filter({ hasText: planName });
  await expect(planRow).toContainText('R$ 149,90');
  await expect(planRow).toContainText('Campanhas, Kanban');

  // a company on that plan, due in five days: the row turns yellow
  await page.getByRole('tab', { name: 'Empresas' }).click();
  // the tab's own words load on its first visit: its panel, not the plans', takes the button
  await expect(page.getByRole('tab', { name: 'Empresas', selected: true })).toBeVisible();
  const companyName = `Empresa Nova ${stamp}`;
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const companyDialog = page.getByRole('dialog', { name: 'Nova empresa' });
  await companyDialog.getByRole('button', { name: 'Adicionar' }).click();
  // name, e-mail and plan
  await expect(companyDialog.getByText('Obrigatório')).toHaveCount(3);
  await companyDialog.getByLabel('Nome', { exact: true }).fill(companyName);
  await companyDialog.getByLabel('E-mail').fill(`nova.${stamp}@example.com`);
  await companyDialog.getByRole('combobox', { name: 'Plano' }).click();
  await page.getByRole('option', { name: planName }).click();
  const due = new Date();
  due.setDate(due.getDate() + 5);
  const dueIso = `${due.getFullYear()}-${String(due.getMonth() + 1).padStart(2, '0')}-${String(due.getDate()).padStart(2, '0')}`;
  await companyDialog.getByLabel('Data de Vencimento').fill(dueIso);
  await companyDialog.getByLabel('Nome de cobrança').fill('Empresa Nova Ltda');
  await companyDialog.getByLabel('Cidade').fill('Recife');
  await expectAccessible(page, '[role="dialog"]');
  await companyDialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(companyDialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(companyName);
  const companyRow = page.getByRole('row').filter({ hasText: companyName });
  await expect(companyRow).toContainText('Vence em 5 dias');
  await expect(companyRow).toHaveCSS('background-color', 'rgb(255, 254, 173)');
  await shot(page, 'administration-companies');

  // '+ Vencimento' moves it a month on: no longer close to its due date
  await companyRow.getByRole('button', { name: `+ Vencimento de ${companyName}` }).click();
  await expect(companyRow).not.toContainText('Vence em 5 dias');

  // the edit form keeps the billing fields
  await companyRow.getByRole('button', { name: `Editar ${companyName}` }).click();
  const editDialog = page.getByRole('dialog', { name: 'Editar empresa' });
  await expect(editDialog.getByLabel('Nome de cobrança')).toHaveValue('Empresa Nova Ltda');
  await expect(editDialog.getByLabel('Cidade')).toHaveValue('Recife');
  await editDialog.getByRole('button', { name: 'Cancelar' }).click();

  // a help video, then the grid every user has
  await page.getByRole('tab', { name: 'Ajuda' }).click();
  await expect(page.getByRole('tab', { name: 'Ajuda', selected: true })).toBeVisible();
  const title = `Primeiros passos ${stamp}`;
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const helpDialog = page.getByRole('dialog', { name: 'Novo vídeo de ajuda' });
  await helpDialog.getByLabel('Título').fill(title);
  await helpDialog.getByLabel('Código do vídeo').fill('dQw4w9WgXcQ');
  await helpDialog.getByLabel('Descrição').fill('Como conectar o WhatsApp');
  await helpDialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'administration-helps-tab');

  await page.goto('/helps');
  await expect(page.getByRole('heading', { name: /^Ajuda \(\d+\)$/ })).toBeVisible();
  await page.getByRole('button', { name: `Assistir ${title}` }).click();
  const player = page.getByRole('dialog', { name: title });
  await expect(player.locator('iframe')).toHaveAttribute(
    'src',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
  );
  await page.keyboard.press('Escape');
  await expect(player).toBeHidden();
  await shot(page, 'administration-helps');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'administration-helps-phone');
  await page.goto('/settings?tab=companies');
  await expect(page.getByRole('tab', { name: 'Empresas', selected: true })).toBeVisible();
  await shot(page, 'administration-companies-phone');
});

test('administration: an admin of another company does not get the super user tabs', async ({
  page,
}) => {
  await newCompanyAdmin(page, 'Sem Super');
  await page.goto('/settings?tab=companies');
  await expect(page.getByRole('tab', { name: 'Opções', selected: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('tab', { name: 'Empresas' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Planos' })).toHaveCount(0);
});
