import { expect, type Page, test } from '@playwright/test';
import { api, expectAccessible, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now()).slice(-6);
const BRUNO = `Bruno Chat ${stamp}`;
const TITLE = `Plantão ${stamp}`;

test.setTimeout(540_000);

async function signInAs(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

test('internal chat: two users, unread badges, the top-bar popover and the phone tabs', async ({
  page,
  browser,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const email = `bruno.chat.${stamp}@example.com`;
  await api(request, token, 'POST', '/users', {
    name: BRUNO,
    email,
    password: 'segredo1',
    profile: 'user',
  });
  const other = await browser.newContext();
  const bruno = await other.newPage();
  await signInAs(bruno, email, 'segredo1');

  // The admin starts a chat with Bruno: the dialog asks for a title and a user.
  await page.goto('/chats');
  await page.getByRole('button', { name: 'Nova' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversa' });
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog.getByText('Por favor, preencha o título da conversa.')).toBeVisible();
  await expect(dialog.getByText('Por favor, selecione pelo menos um usuário.')).toBeVisible();
  await dialog.getByLabel(/Título/).fill(TITLE);
  await dialog.getByRole('combobox', { name: /Usuários/ }).fill(BRUNO);
  await page.getByRole('option', { name: BRUNO }).click();
  await shot(page, 'chats-01-dialog');
  await dialog.getByRole('button', { name: 'Adicionar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);

  // Enter sends; a blank message is not sent.
  const input = page.getByRole('textbox', { name: 'Mensagem' });
  await input.fill('   ');
  await input.press('Enter');
  await input.fill('Bom dia! Quem cobre o sábado?');
  await input.press('Enter');
  await expect(page.getByRole('log').getByText('Bom dia! Quem cobre o sábado?')).toBeVisible();
  await expect(page.getByRole('log').locator('.chat-message')).toHaveCount(1);

  // Bruno, on another screen, sees the count in the top bar, live.
  await expect(
    bruno.getByRole('button', { name: 'Chat interno: 1 mensagem não lida' }),
  ).toBeVisible();
  await bruno.getByRole('button', { name: 'Chat interno: 1 mensagem não lida' }).click();
  const popover = bruno.getByRole('dialog', { name: 'Chat interno' });
  await expect(popover.getByText(`${TITLE} (1)`)).toBeVisible();
  await shot(bruno, 'chats-02-popover');
  await popover.getByText(`${TITLE} (1)`).click();
  await expect(bruno).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
  await expect(bruno.getByRole('log').getByText('Bom dia! Quem cobre o sábado?')).toBeVisible();
  // opened: his count is cleared
  await expect(bruno.getByRole('button', { name: 'Chat interno', exact: true })).toBeVisible();
  // only the owner edits or deletes
  await expect(bruno.getByRole('button', { name: `Editar ${TITLE}` })).toHaveCount(0);

  // The admin leaves the chat; Bruno answers twice: the list shows the admin's unread badge.
  await page.goto('/tickets');
  const reply = bruno.getByRole('textbox', { name: 'Mensagem' });
  await reply.fill('Eu cubro!');
  await reply.press('Enter');
  await reply.fill('Até lá.');
  await reply.press('Enter');
  await expect(
    page.getByRole('button', { name: 'Chat interno: 2 mensagens não lidas' }),
  ).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Chat interno' }).first().click();
  await expect(page).toHaveURL(/\/chats$/);
  const list = page.getByRole('list', { name: 'Conversas' });
  // the badge (a zero-size anchor) names the count inside the chat's button
  await expect(list.getByRole('button', { name: /2 mensagens não lidas/ })).toBeVisible();
  await expect(page.getByRole('button', { name: `Editar ${TITLE}` })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'chats-03-unread-badges');
  await list.getByText(TITLE).click();
  await expect(page.getByRole('log').getByText('Até lá.')).toBeVisible();
  await expect(list.getByLabel('2 mensagens não lidas')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Chat interno', exact: true })).toBeVisible();
  await shot(page, 'chats-04-conversation');

  // The notifications popover sits beside it with its count.
  await page.getByRole('button', { name: /^Notificações/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notificações' })).toBeVisible();
  await shot(page, 'chats-05-notifications');
  await page.keyboard.press('Escape');

  // On a phone: two tabs, Chats and Mensagens.
  await bruno.setViewportSize({ width: 390, height: 800 });
  await bruno.goto('/chats');
  await expect(bruno.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
  await shot(bruno, 'chats-06-phone-list');
  await bruno.getByRole('list', { name: 'Conversas' }).getByText(TITLE).click();
  await expect(bruno.getByRole('tab', { name: 'Mensagens' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(bruno.getByRole('log').getByText('Eu cubro!')).toBeVisible();
  await shot(bruno, 'chats-07-phone-messages');

  // The owner deletes it: it leaves Bruno's screen too.
  await page.getByRole('button', { name: `Excluir ${TITLE}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByRole('list', { name: 'Conversas' })).toHaveCount(0);
  await expect(bruno).toHaveURL(/\/chats$/);
  await other.close();
});
