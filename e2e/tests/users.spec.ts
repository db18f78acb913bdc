import { expect, test } from '@playwright/test';
import { shot } from '../support';

test('an admin signs in, creates, edits and deletes a user, and signs out', async ({ page }) => {
  await page.goto('/tickets');
  await expect(page).toHaveURL(/\/login$/);
  await shot(page, '01-login');

  await page.getByLabel('Email').fill('admin@admin.com');
  await page.getByLabel('Senha').fill('wrong-password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Senha').fill('123456');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByText('6.0.0')).toBeVisible();
  await shot(page, '02-signed-in');

  await page.goto('/users');
  await expect(page.getByRole('cell', { name: 'admin@admin.com' })).toBeVisible();
  const email = `agente.${Date.now()}@example.com`;

  await page.getByRole('button', { name: 'Adicionar usuário' }).click();
  const create = page.getByRole('dialog', { name: 'Adicionar usuário' });
  await create.getByLabel('Nome').fill('A');
  await create.getByLabel('Email').fill('not-an-email');
  await create.getByRole('button', { name: 'Adicionar' }).click();
  // the spec writes this form's messages as they are, in Portuguese too
  await expect(create.locator('#user-name-helper-text')).toHaveText('Too Short!');
  await expect(create.locator('#user-email-helper-text')).toHaveText('Invalid email');
  await shot(page, '03-user-validation');
  await create.getByLabel('Nome').fill('Agente Teste');
  await create.getByLabel('Email').fill(email);
  await create.getByLabel('Senha').fill('segredo1');
  await create.getByRole('button', { name: 'Adicionar' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('cell', { name: email })).toBeVisible();
  await shot(page, '04-user-created');

  await page.getByRole('button', { name: 'Editar Agente Teste' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar usuário' });
  await edit.getByLabel('Nome').fill('Agente Editado');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('cell', { name: 'Agente Editado', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Excluir Agente Editado' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir Agente Editado?' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByRole('cell', { name: email })).toBeHidden();
  await shot(page, '05-user-deleted');

  await page.getByRole('button', { name: 'Minha conta' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/users');
  await expect(page).toHaveURL(/\/login$/);
  await shot(page, '06-signed-out');
});

test('the sign-up page lists the public plans and masks the phone', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Telefone com DDD').fill('11987654321');
  await expect(page.getByLabel('Telefone com DDD')).toHaveValue('(11) 98765-4321');
  await page.getByLabel('Plano').click();
  await expect(page.getByRole('option', { name: /Plano 1/ })).toBeVisible();
  await shot(page, '07-signup');
});
