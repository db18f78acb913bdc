import { expect, test } from '@playwright/test';
import { API, api, expectAccessible, picture, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const NAME = `Catálogo ${stamp}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test.slow();

test('file lists: a list with two uploaded options, kept under generated names', async ({
  page,
  request,
}) => {
  await signIn(page);
  await page.goto('/files');
  await page.getByRole('button', { name: 'Adicionar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova lista de arquivos' });
  await dialog.getByLabel('Nome', { exact: true }).fill('ab');
  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(dialog.getByText('nome muito curto')).toBeVisible();
  await expect(dialog.getByText('Obrigatório')).toBeVisible();

  await dialog.getByLabel('Nome', { exact: true }).fill(NAME);
  await dialog.getByLabel('Mensagem').fill('Segue nosso catálogo e a foto da loja.');
  await dialog.getByRole('button', { name: 'Adicionar arquivo' }).click();
  await dialog.getByRole('button', { name: 'Adicionar arquivo' }).click();
  const first = dialog.getByRole('group', { name: 'Arquivo 1' });
  const second = dialog.getByRole('group', { name: 'Arquivo 2' });
  await first.getByLabel('Nome do arquivo').fill('Tabela de preços');
  await first
    .getByLabel('Arquivo 1 a enviar')
    .setInputFiles({ name: 'tabela de preços.pdf', mimeType: 'application/pdf', buffer: PDF });
  await second.getByLabel('Nome do arquivo').fill('Foto da loja');
  await second
    .getByLabel('Arquivo 2 a enviar')
    .setInputFiles({ name: 'loja.png', mimeType: 'image/png', buffer: picture() });
  await expect(first.getByText('tabela de preços.pdf')).toBeVisible();
  await expect(second.getByText('loja.png')).toBeVisible();
  await shot(page, 'files-dialog');
  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByText('Lista de arquivos salva com sucesso!')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: NAME });
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'files-list');

  // Both files are stored and served from their generated names.
  const token = await tokenOf(page);
  const found = await api<{
    files: { name: string; options: { name: string; path: string; mediaName: string }[] }[];
  }>(request, token, 'GET', `/files?searchParam=${encodeURIComponent(stamp)}`);
  const [list] = found.files;
  expect(list?.options.map((option) => [option.name, option.mediaName])).toEqual([
    ['Tabela de preços', 'tabela_de_preços.pdf'],
    ['Foto da loja', 'loja.png'],
  ]);
  for (const option of list!.options) {
    expect(option.path).toMatch(/^\/media\/\d+\/[0-9a-f-]{36}\.(pdf|png)\?/);
    const served = await request.get(`${API}${option.path}`);
    expect(served.status()).toBe(200);
  }

  // Reopened, the dialog shows the stored files; /files-backup is the same screen.
  await page.goto('/files-backup');
  await page.getByRole('button', { name: `Editar ${NAME}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar lista de arquivos' });
  await expect(edit.getByText('tabela_de_preços.pdf')).toBeVisible();
  await expect(edit.getByText('loja.png')).toBeVisible();
  await expectAccessible(page, '[role="dialog"]');
  await shot(page, 'files-edit');
});
