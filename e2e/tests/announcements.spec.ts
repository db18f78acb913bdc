import { expect, test } from '@playwright/test';
import { expectAccessible, newCompanyAdmin, shot, signIn } from '../support';

const stamp = String(Date.now());
const TITLE = `Manutenção programada ${stamp}`;
const TEXT = `O sistema ficará fora do ar sábado às 22h (${stamp}).`;

test.slow();

test('announcements: the super user writes one; another company sees it in the top bar, live', async ({
  page,
  browser,
}) => {
  // another company's admin, already on its screen when the announcement is written
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const otherPage = await other.newPage();
  await newCompanyAdmin(otherPage, 'Outra empresa');
  await otherPage.goto('/announcements');
  await expect(
    otherPage.getByText(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    ),
  ).toBeVisible();
  await expect(otherPage).not.toHaveURL(/announcements/);

  await signIn(page);
  await page.goto('/announcements');
  await page.getByRole('button', { name: 'Adicionar informativo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar informativo' });
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog.getByText('Obrigatório')).toHaveCount(2);
  await dialog.getByLabel('Título').fill(TITLE);
  await dialog.getByLabel('Texto').fill(TEXT);
  await dialog.getByLabel('Prioridade').click();
  await page.getByRole('option', { name: 'Alta' }).click();
  await shot(page, 'announcements-dialog');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByText('Informativo salvo com sucesso!')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: TITLE });
  await expect(row.getByText('Alta')).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'announcements-list');

  // heard live on the other company's socket: the popover lists it in red
  await otherPage.getByRole('button', { name: /^Informativos \(/ }).click();
  const popover = otherPage.getByRole('dialog', { name: 'Informativos' });
  await expect(popover.getByText(TITLE)).toBeVisible();
  await expect(popover.getByText(TEXT)).toBeVisible();
  await shot(otherPage, 'announcements-popover-phone');
  await other.close();
});
