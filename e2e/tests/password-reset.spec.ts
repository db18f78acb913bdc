import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { codeOf, type ReceivedMail } from '../../apps/server/test/fakes/smtp';
import { expectAccessible, shot } from '../support';

/** The last mail the local SMTP server received for `to`. */
async function lastMailTo(to: string): Promise<ReceivedMail> {
  const folder = process.env.E2E_MAILBOX!;
  let found: ReceivedMail | undefined;
  await expect
    .poll(() => {
      found = readdirSync(folder)
        .sort()
        .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as ReceivedMail)
        .filter((mail) => mail.to.includes(to))
        .at(-1);
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

async function signUp(page: Page, email: string) {
  await page.goto('/signup');
  await page.getByLabel('Nome da empresa').fill(`Reset ${Date.now()}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Telefone com DDD').fill('11987654321');
  await page.getByLabel('Senha').fill('segredo1');
  await page.getByLabel('Plano').click();
  await page.getByRole('option', { name: /Plano 1/ }).click();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('password reset: a code by mail through SMTP, then a new password that signs in', async ({
  page,
}) => {
  const email = `reset.${Date.now()}@example.com`;
  await signUp(page, email);

  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await expect(page).toHaveURL(/\/forgetpsw$/);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByText('Obrigatório')).toBeVisible();
  await page.getByLabel('Email').fill('ninguem.aqui@example.com');
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByText('Email não encontrado')).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByText('Email enviado com sucesso!')).toBeVisible();
  const code = codeOf(await lastMailTo(email));
  expect(code).toMatch(/^\d{6}$/);

  await page.getByLabel('Código').fill(code!);
  await page.getByLabel('Nova senha').fill('fraca');
  await page.getByLabel('Confirme a senha').fill('outra');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(
    page.getByText(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    ),
  ).toBeVisible();
  await expect(page.getByText('As senhas não correspondem')).toBeVisible();
  await expectAccessible(page, 'body');
  await shot(page, 'password-reset');

  await page.getByLabel('Nova senha').fill('NovaSenha1');
  await page.getByLabel('Confirme a senha').fill('NovaSenha1');
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.getByText('Senha redefinida com sucesso.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The forgotten-password page, with an Email field of its own, may still be on screen.
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha').fill('NovaSenha1');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
});
