import { expect, test } from '@playwright/test';
import { API, api, expectAccessible, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const NAME = `Assistente ${stamp}`;
const RENAMED = `Assistente de vendas ${stamp}`;
const KEY = `sk-e2e-${stamp}-abcdefghijklmnop-WXYZ`;

test.slow();

test('prompts: created with its sector, the key kept as a hint only, edited and deleted', async ({
  page,
  request,
}) => {
  await signIn(page);
  await page.goto('/prompts');
  await expect(page.getByRole('heading', { name: 'Prompts' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Adicionar Prompt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar Prompt' });
  await dialog.getByLabel('Nome').fill(NAME);
  await dialog.getByLabel('API Key').fill(KEY);
  await dialog.getByLabel('Prompt', { exact: true }).fill('Você atende a loja. Seja breve.');
  // the sector is required: asked for before anything is saved
  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(dialog.getByText('Informe o setor')).toBeVisible();
  await shot(page, 'prompts-01-queue-required');

  await dialog.getByLabel('Setor/Fila').click();
  await page.getByRole('option', { name: 'Suporte' }).click();
  await expect(dialog.getByText('Informe o setor')).toBeHidden();
  await expect(dialog.getByLabel('Máximo de Tokens Resposta')).toHaveValue('100');
  await expect(dialog.getByLabel('Máximo de mensagens no Histórico')).toHaveValue('10');
  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByText('Prompt salvo com sucesso!')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: NAME });
  await expect(row.getByRole('cell', { name: 'Suporte' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '100', exact: true })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'prompts-02-list');

  // The key is answered as a hint (its last characters), never whole: not by the API ...
  const token = await tokenOf(page);
  const listed = await request.get(`${API}/prompt?searchParam=${stamp}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(listed.ok()).toBe(true);
  const text = await listed.text();
  expect(text).not.toContain(KEY);
  const { prompts } = JSON.parse(text) as { prompts: { id: number; apiKey: string | null }[] };
  expect(prompts).toHaveLength(1);
  expect(prompts[0]!.apiKey).toBe('••••WXYZ');

  // ... nor by the page, whose edit dialog shows the hint.
  await page.getByRole('button', { name: `Editar ${NAME}` }).click();
  const edit = page.getByRole('dialog', { name: 'Editar Prompt' });
  await expect(edit.getByLabel('API Key')).toHaveValue('••••WXYZ');
  expect(await page.content()).not.toContain(KEY);
  await expectAccessible(page, '[role="dialog"]');
  await shot(page, 'prompts-03-edit');

  // Edited with the hint sent back as it was: the stored key is kept.
  await edit.getByLabel('Nome').fill(RENAMED);
  await edit.getByLabel('Máximo de Tokens Resposta').fill('250');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Prompt salvo com sucesso!').first()).toBeVisible();
  await expect(edit).toBeHidden();
  const renamed = page.getByRole('row').filter({ hasText: RENAMED });
  await expect(renamed.getByRole('cell', { name: '250', exact: true })).toBeVisible();
  const kept = await api<{ name: string; maxTokens: number; apiKey: string | null }>(
    request,
    token,
    'GET',
    `/prompt/${prompts[0]!.id}`,
  );
  expect(kept).toMatchObject({ name: RENAMED, maxTokens: 250, apiKey: '••••WXYZ' });

  await renamed.getByRole('button', { name: `Excluir ${RENAMED}` }).click();
  await page
    .getByRole('dialog', { name: `Excluir ${RENAMED}?` })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Prompt excluído com sucesso!')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: RENAMED })).toHaveCount(0);
  const gone = await request.get(`${API}/prompt/${prompts[0]!.id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(gone.status()).toBe(404);
  await shot(page, 'prompts-04-deleted');
});
