import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectAccessible, shot, signIn } from '../support';

const stamp = String(Date.now());
const contactName = `Silva; "E2E" ${stamp}`;
const number = `5511${stamp.slice(-9)}`;
const email = `e2e.${stamp}@example.com`;

test('contacts: add, search, export contatos.csv, then delete', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Contatos' }).first().click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('table', { name: 'Contatos' })).toBeVisible();

  await page.getByRole('button', { name: 'Adicionar contato' }).click();
  const create = page.getByRole('dialog', { name: 'Adicionar contato' });
  await create.getByLabel('Nome', { exact: true }).fill('A');
  await create.getByLabel('Email').fill('not-an-email');
  await create.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(create.locator('#contact-name-helper-text')).toHaveText('Muito curto!');
  await expect(create.locator('#contact-email-helper-text')).toHaveText('Email inválido');
  await create.getByLabel('Nome', { exact: true }).fill(contactName);
  await create.getByLabel('Número do WhatsApp').fill(`+${number}`);
  await create.getByLabel('Email').fill(email);
  await create.getByRole('button', { name: 'Adicionar informação' }).click();
  await create.getByLabel('Nome do campo').fill('CPF');
  await create.getByLabel('Valor').fill('123.456.789-00');
  await shot(page, 'contacts-01-dialog');
  await create.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(create).toBeHidden();
  await expect(page.getByText('Contato salvo com sucesso!')).toBeVisible();

  // the same number again is refused on the number field
  await page.getByRole('button', { name: 'Adicionar contato' }).click();
  const duplicate = page.getByRole('dialog', { name: 'Adicionar contato' });
  await duplicate.getByLabel('Nome', { exact: true }).fill('Outro Nome');
  await duplicate.getByLabel('Número do WhatsApp').fill(number);
  await duplicate.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(duplicate.locator('#contact-number-helper-text')).toHaveText(
    'Já existe um contato com este número.',
  );
  await duplicate.getByRole('button', { name: 'Cancelar' }).click();
  await expect(duplicate).toBeHidden();

  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(stamp);
  const table = page.getByRole('table', { name: 'Contatos' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('cell', { name: email })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'contacts-02-search');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('contatos.csv');
  const content = await readFile((await download.path())!, 'utf8');
  expect(content.replace(/^\uFEFF/, '')).toBe(
    `name;number;email\r\n"Silva; ""E2E"" ${stamp}";${number};${email}\r\n`,
  );

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(table.getByText(number).first()).toBeVisible();
  await shot(page, 'contacts-03-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // start-conversation opens the new ticket; asking again opens the same one (it is ours)
  await page.getByRole('button', { name: `Iniciar conversa com ${contactName}` }).click();
  const start = page.getByRole('dialog', { name: `Iniciar conversa com ${contactName}` });
  await shot(page, 'contacts-04-start-conversation');
  await start.getByRole('button', { name: 'Iniciar' }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const ticketUrl = page.url();
  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(stamp);
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: `Iniciar conversa com ${contactName}` }).click();
  await page
    .getByRole('dialog', { name: `Iniciar conversa com ${contactName}` })
    .getByRole('button', { name: 'Iniciar' })
    .click();
  await expect(page).toHaveURL(ticketUrl);
  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(stamp);
  await expect(table.getByRole('row')).toHaveCount(2);

  await page.getByRole('button', { name: `Excluir ${contactName}` }).click();
  const confirm = page.getByRole('dialog', { name: `Excluir ${contactName}?` });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Contato excluído com sucesso!')).toBeVisible();
  await expect(table.getByRole('cell', { name: email })).toBeHidden();
});

test('tags and quick replies: create, find, delete', async ({ page }) => {
  await signIn(page);
  const tagName = `E2E tag ${stamp}`;
  await page.goto('/tags');
  await page.getByRole('button', { name: 'Adicionar tag' }).click();
  const tagDialog = page.getByRole('dialog', { name: 'Adicionar tag' });
  await tagDialog.getByLabel('Nome').fill('ab');
  await tagDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(tagDialog.locator('#tag-name-helper-text')).toHaveText('Mensagem muito curta');
  await tagDialog.getByLabel('Nome').fill(tagName);
  await tagDialog.getByRole('button', { name: 'Usar a cor #d32f2f' }).click();
  await tagDialog.getByRole('switch', { name: 'Mostrar como coluna do Kanban' }).check();
  await shot(page, 'tags-01-dialog');
  await tagDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(tagDialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(stamp);
  const tagsTable = page.getByRole('table', { name: 'Tags' });
  await expect(tagsTable.getByRole('row')).toHaveCount(2);
  await expect(tagsTable.getByText(tagName)).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'tags-02-list');
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, 'tags-03-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: `Excluir ${tagName}` }).click();
  await page
    .getByRole('dialog', { name: `Excluir ${tagName}?` })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Tag excluída com sucesso!')).toBeVisible();
  await expect(tagsTable.getByText(tagName)).toBeHidden();

  const shortcode = `e2e${stamp}`;
  await page.goto('/quick-messages');
  await page.getByRole('button', { name: 'Adicionar resposta' }).click();
  const qmDialog = page.getByRole('dialog', { name: 'Adicionar resposta rápida' });
  await qmDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(qmDialog.locator('#quick-message-shortcode-helper-text')).toHaveText('Obrigatório');
  await qmDialog.getByLabel('Atalho').fill(shortcode);
  await qmDialog.getByLabel('Mensagem').fill('Olá ');
  await qmDialog.getByRole('button', { name: 'Inserir primeiro nome do contato' }).click();
  await expect(qmDialog.getByLabel('Mensagem')).toHaveValue('Olá {{contactFirstName}}');
  await qmDialog.getByLabel('Arquivo da resposta rápida').setInputFiles({
    name: 'tabela.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  await qmDialog.getByRole('switch', { name: /Geral/ }).check();
  await shot(page, 'quick-messages-01-dialog');
  await qmDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(qmDialog).toBeHidden();
  await expect(page.getByText('Resposta rápida salva com sucesso!')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(shortcode);
  const qmTable = page.getByRole('table', { name: 'Respostas rápidas' });
  await expect(qmTable.getByRole('row')).toHaveCount(2);
  await expect(qmTable.getByRole('cell', { name: 'tabela.pdf' })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'quick-messages-02-list');
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, 'quick-messages-03-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: `Excluir /${shortcode}` }).click();
  await page
    .getByRole('dialog', { name: `Excluir /${shortcode}?` })
    .getByRole('button', { name: 'Excluir' })
    .click();
  await expect(page.getByText('Resposta rápida excluída com sucesso!')).toBeVisible();
  await expect(qmTable.getByText(`/${shortcode}`)).toBeHidden();
});
