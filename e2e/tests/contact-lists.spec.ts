import { expect, test } from '@playwright/test';
import { expectAccessible, shot, signIn } from '../support';

const stamp = String(Date.now()).slice(-6);
const LIST = `Clientes ${stamp}`;

/** A sheet as people write it: a header, Brazilian numbers in every shape, a repeat, a bad row. */
const CSV = [
  'nome;numero;email',
  `Ana ${stamp};(11) 98765-${stamp.slice(-4)};ana@example.com`,
  `Bruno ${stamp};+55 21 8765-${stamp.slice(-4)};`,
  `Ana de novo;5511987650000;`,
  `Ana repetida;11 98765 0000;`,
  `Sem número;telefone;`,
].join('\n');

// A list, an import and a phone's view in one story: longer than the default.
test.setTimeout(420_000);

test('contact lists: a list, a contact typed in, a sheet imported with its summary', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/contact-lists');
  await expect(page.getByRole('heading', { name: 'Listas de contatos' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova lista' });
  await dialog.getByLabel('Nome').fill('A');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog.getByText('Muito curto!')).toBeVisible();
  await dialog.getByLabel('Nome').fill(LIST);
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: LIST });
  await expect(row).toContainText('0');
  await expectAccessible(page);
  await shot(page, 'contact-lists-01-lists');

  await row.getByRole('button', { name: `Contatos de ${LIST}` }).click();
  await expect(page.getByRole('heading', { name: LIST })).toBeVisible();

  // One typed in: its number is read as country code, area code and number.
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const add = page.getByRole('dialog', { name: 'Adicionar contato' });
  await add.getByLabel('Nome').fill(`Carla ${stamp}`);
  await add.getByLabel('Número').fill('(31) 99876-5432');
  await add.getByRole('button', { name: 'Adicionar' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByRole('cell', { name: '5531998765432' })).toBeVisible();

  // The sheet: picked, confirmed with the example at hand, read with its summary.
  await page.getByLabel('Planilha a importar').setInputFiles({
    name: 'clientes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(CSV),
  });
  const confirm = page.getByRole('dialog', { name: 'Importar planilha' });
  await expect(confirm.getByRole('link', { name: 'planilha de exemplo' })).toHaveAttribute(
    'href',
    '/planilha.xlsx',
  );
  await shot(page, 'contact-lists-02-import-confirm');
  await confirm.getByRole('button', { name: 'Importar' }).click();
  await expect(
    page.getByText('5 linhas lidas: 3 importadas, 1 repetidas ignoradas, 1 com número inválido.'),
  ).toBeVisible();
  await expect(page.getByText('Linha 6: telefone')).toBeVisible();
  await expect(page.getByRole('cell', { name: `552198765${stamp.slice(-4)}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Ana ${stamp}`, exact: true })).toBeVisible();
  // the success toast passes over the header's buttons: checked once it is gone
  await expect(page.getByText('3 contatos importados')).toBeHidden({ timeout: 15_000 });
  await shot(page, 'contact-lists-03-imported');
  await expectAccessible(page);
  await shot(page, 'contact-lists-03-imported');

  // The example sheet is there to download.
  const example = await page.request.get('/planilha.xlsx');
  expect(example.ok()).toBe(true);

  // Searched by number, deleted.
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill('98765432');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: `Excluir Carla ${stamp}` }).click();
  await page
    .getByRole('dialog', { name: `Excluir Carla ${stamp}?` })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Contato excluído com sucesso!')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill('');
  await expect(page.getByRole('cell', { name: new RegExp(`^Ana ${stamp}`) })).toBeVisible();
  await shot(page, 'contact-lists-04-phone');
});
