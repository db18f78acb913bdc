import { expect, test } from '@playwright/test';
import { addQueueOption, expectAccessible, newCompanyAdmin, shot } from '../support';

test('an admin of a new company builds a queue with its chatbot menu, edits and deletes it', async ({
  page,
}) => {
  await newCompanyAdmin(page, 'Empresa das Filas');
  await page.goto('/queues');
  const table = page.getByRole('table', { name: 'Filas & Chatbot' });
  await expect(table.getByText('Nenhuma fila cadastrada')).toBeVisible();

  // A new queue: the name is checked, then saved with its color and greeting.
  await page.getByRole('button', { name: 'Adicionar fila' }).click();
  const create = page.getByRole('dialog', { name: 'Adicionar fila' });
  await create.getByLabel('Nome').fill('A');
  await create.getByRole('button', { name: 'Adicionar' }).click();
  await expect(create.locator('#queue-name-helper-text')).toHaveText('Muito curto!');
  await create.getByRole('tab', { name: 'Opções do chatbot' }).click();
  await expect(create.getByText('Salve a fila para adicionar opções do chatbot')).toBeVisible();
  await create.getByRole('tab', { name: 'Dados' }).click();
  await create.getByLabel('Nome').fill('Atendimento Comercial');
  await create.getByLabel('Cor', { exact: true }).fill('#8e24aa');
  await create.getByLabel('Ordem da fila (bot)').fill('1');
  await create.getByLabel('Mensagem de saudação').fill('Olá! Digite o número da opção desejada.');
  await shot(page, 'queues-01-dialog');
  await create.getByRole('button', { name: 'Adicionar' }).click();
  await expect(create).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: 'Atendimento Comercial' });
  await expect(row.getByRole('img', { name: 'Cor #8e24aa' })).toBeVisible();
  await expect(row.getByText('Olá! Digite o número da opção desejada.')).toBeVisible();

  // Its bot menu: two options on the first level, one under the first.
  await row.getByRole('button', { name: 'Editar Atendimento Comercial' }).click();
  let edit = page.getByRole('dialog', { name: 'Editar fila' });
  await edit.getByRole('tab', { name: 'Opções do chatbot' }).click();
  await expect(edit.getByText('Nenhuma opção cadastrada')).toBeVisible();
  await addQueueOption(page, null, { title: 'Vendas', message: 'Fale com um vendedor' });
  await addQueueOption(page, null, { title: 'Financeiro', message: 'Boletos e notas fiscais' });
  await addQueueOption(page, 'Vendas', { title: 'Planos', message: 'Conheça nossos planos' });
  await expect(edit.getByRole('list', { name: 'Opções de Vendas' })).toBeVisible();
  await shot(page, 'queues-02-menu');
  await edit.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await expect(edit).toBeHidden();

  // Opened again, the tree is there as saved.
  await row.getByRole('button', { name: 'Editar Atendimento Comercial' }).click();
  edit = page.getByRole('dialog', { name: 'Editar fila' });
  await edit.getByRole('tab', { name: 'Opções do chatbot' }).click();
  const menu = edit.getByRole('list', { name: 'Opções do chatbot' });
  await expect(menu.getByRole('listitem', { name: '1 Vendas' })).toBeVisible();
  await expect(menu.getByRole('listitem', { name: '2 Financeiro' })).toBeVisible();
  const children = menu.getByRole('list', { name: 'Opções de Vendas' });
  await expect(children.getByRole('listitem', { name: '1 Planos' })).toBeVisible();
  await expect(children.getByText('Conheça nossos planos')).toBeVisible();
  await expectAccessible(page);
  // the dialog lives outside the page's main
  await expectAccessible(page, '[role="dialog"]');

  // The queue's data edited.
  await edit.getByRole('tab', { name: 'Dados' }).click();
  await edit.getByLabel('Nome').fill('Comercial');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  const renamed = table.getByRole('row').filter({ hasText: 'Comercial' });
  await expect(renamed.getByRole('cell', { name: 'Comercial', exact: true })).toBeVisible();
  await shot(page, 'queues-03-page');

  // On a phone.
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(renamed.getByRole('button', { name: 'Editar Comercial' })).toBeVisible();
  await shot(page, 'queues-04-phone-page');
  await renamed.getByRole('button', { name: 'Editar Comercial' }).click();
  edit = page.getByRole('dialog', { name: 'Editar fila' });
  await shot(page, 'queues-05-phone-dialog');
  await edit.getByRole('tab', { name: 'Opções do chatbot' }).click();
  await expect(edit.getByRole('listitem', { name: '1 Planos' })).toBeVisible();
  await shot(page, 'queues-06-phone-menu');
  await edit.getByRole('button', { name: 'Cancelar', exact: true }).click();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Deleted after confirmation.
  await renamed.getByRole('button', { name: 'Excluir Comercial' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir Comercial?' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(table.getByText('Nenhuma fila cadastrada')).toBeVisible();
});
