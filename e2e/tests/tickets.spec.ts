import { expect, test } from '@playwright/test';
import {
  api,
  expectAccessible,
  pairSimulator,
  phoneWrites,
  picture,
  shot,
  signIn,
  tokenOf,
} from '../support';

const stamp = String(Date.now());
const PHONE = `55118${stamp.slice(-8)}`;
const CONTACT = `Paciente ${stamp.slice(-4)}`;
const HELLO = `Bom dia, preciso de ajuda ${stamp}`;
const SHORTCODE = `ajuda${stamp.slice(-5)}`;
const QUICK = `Claro! Vamos resolver ${stamp}`;
const CAPTION = `Segue o comprovante ${stamp}`;
const FILE_NAME = `comprovante-${stamp}.png`;
const XSS = '<img src=x onerror=alert(1)><script>alert(2)</script>';

test('tickets: a contact writes, the agent accepts and replies, resolves and reopens', async ({
  page,
  context,
  request,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page);
  // the agent's quick reply, offered after '/'
  await api(request, await tokenOf(page), 'POST', '/quick-messages', {
    shortcode: SHORTCODE,
    message: QUICK,
  });
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  // a new contact writes to the company from the simulator
  const log = await phoneWrites(phone, PHONE, CONTACT, HELLO);

  // the ticket waits in 'Aguardando', with a count on the tab
  await page.goto('/tickets');
  const waitingTab = page.getByRole('tab', { name: /^Aguardando \d+$/ });
  await expect(waitingTab).toBeVisible();
  await expect(waitingTab).not.toHaveAccessibleName('Aguardando 0', { timeout: 20_000 });
  await waitingTab.click();
  const waiting = page.getByRole('list', { name: 'Aguardando' });
  const item = waiting.getByTestId('ticket-item').filter({ hasText: CONTACT });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await expect(item).toContainText(HELLO);
  // the contact's profile picture (the simulator draws one per number)
  const avatar = item.getByRole('img', { name: CONTACT });
  await expect(avatar).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => avatar.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  await shot(page, '30-tickets-pending');

  // accepted with its button, then the conversation is the current one
  await item.getByRole('button', { name: `Aceitar o atendimento de ${CONTACT}` }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const conversation = page.getByRole('region', { name: `Conversa com ${CONTACT}` });
  await expect(conversation).toBeVisible();
  await expect(conversation.getByRole('list', { name: 'Mensagens' })).toContainText(HELLO);
  await expect(page.getByRole('tab', { name: /^Atendendo \d+$/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // opening the ticket read the contact's message: blue ticks on the phone
  const hello = log.getByRole('listitem').filter({ hasText: HELLO });
  await expect(hello.getByRole('img', { name: 'Lida pela empresa', exact: true })).toBeVisible({
    timeout: 20_000,
  });

  // a quick reply chosen after '/': the phone gets it and reads it, the ticks turn blue
  const messages = conversation.getByRole('list', { name: 'Mensagens' });
  const input = conversation.getByRole('textbox', { name: 'Mensagem' });
  await input.fill(`/${SHORTCODE}`);
  const quickReplies = conversation.getByRole('listbox', { name: 'Respostas rápidas' });
  // labels are cut at 35 characters
  await quickReplies
    .getByRole('option', { name: `${SHORTCODE} - Claro! Vamos resolver …` })
    .click();
  await expect(input).toHaveValue(QUICK);
  await input.press('Enter');
  await expect(input).toHaveValue('');
  const sentQuick = messages.getByRole('listitem').filter({ hasText: QUICK });
  await expect(sentQuick).toBeVisible();
  const phoneQuick = log.getByRole('listitem').filter({ hasText: QUICK });
  await expect(phoneQuick).toBeVisible({ timeout: 20_000 });
  await expect(phoneQuick.getByRole('img', { name: 'Lida', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(sentQuick.getByRole('img', { name: 'Lida', exact: true })).toBeVisible({
    timeout: 20_000,
  });

  // a file from the picker with a caption: the phone gets the image, and reads it too
  const chooser = page.waitForEvent('filechooser');
  await conversation.getByRole('button', { name: 'Anexar arquivos' }).click();
  await (await chooser).setFiles({ name: FILE_NAME, mimeType: 'image/png', buffer: picture() });
  await expect(conversation.getByRole('list', { name: 'Arquivos anexados' })).toContainText(
    FILE_NAME,
  );
  await input.fill(CAPTION);
  await input.press('Enter');
  const sentFile = messages.getByRole('listitem').filter({ hasText: CAPTION });
  await expect(sentFile.locator('img').first()).toBeVisible({ timeout: 20_000 });
  const phoneFile = log.getByRole('listitem').filter({ hasText: CAPTION });
  await expect(phoneFile.locator('img').first()).toBeVisible({ timeout: 20_000 });
  await expect(phoneFile.getByRole('img', { name: 'Lida', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect(sentFile.getByRole('img', { name: 'Lida', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await phoneFile.scrollIntoViewIfNeeded();
  await shot(phone, '37-simulator-quick-reply-and-file');

  // markup from the contact is shown as text, never run
  await phone.getByLabel(`Mensagem de ${CONTACT}`).fill(`Olá *negrito* ${XSS}`);
  await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(messages).toContainText(XSS, { timeout: 20_000 });
  await expect(messages.locator('b', { hasText: 'negrito' })).toBeVisible();
  await expect(messages.locator('img[src="x"]')).toHaveCount(0);
  await expect(messages.locator('script')).toHaveCount(0);
  await shot(page, '31-ticket-conversation');
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // internal notes in the contact drawer
  await conversation.getByTitle(`Dados do contato ${CONTACT}`).click();
  const drawer = page.getByRole('presentation').filter({ hasText: 'Observações' });
  await drawer.getByLabel('Nova observação').fill('Cliente prefere contato à tarde');
  await drawer.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByText('Observação adicionada com sucesso!')).toBeVisible();
  await expect(drawer.getByText('Cliente prefere contato à tarde')).toBeVisible();
  await shot(page, '35-contact-drawer-notes');
  await drawer.getByRole('button', { name: 'Excluir observação' }).click();
  await expect(page.getByText('Observação excluída com sucesso!')).toBeVisible();
  await expect(drawer.getByText('Cliente prefere contato à tarde')).toBeHidden();
  // The deleted note's button took the focus with it; Escape closes the drawer from inside it.
  await drawer.getByLabel('Nova observação').focus();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // transfer to another queue, keeping the agent
  await conversation.getByRole('button', { name: 'Mais ações' }).click();
  await page.getByRole('menuitem', { name: 'Transferir' }).click();
  const transfer = page.getByRole('dialog', { name: 'Transferir Ticket' });
  await transfer.getByRole('button', { name: 'Transferir' }).click();
  await expect(transfer.getByText('Selecione uma fila')).toBeVisible();
  await transfer.getByRole('combobox', { name: 'Fila' }).click();
  await page.getByRole('option', { name: 'Vendas' }).click();
  await transfer.getByRole('combobox', { name: 'Usuário' }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await shot(page, '36-transfer-dialog');
  await transfer.getByRole('button', { name: 'Transferir' }).click();
  await expect(transfer).toBeHidden();
  await expect(conversation.getByText(/Vendas/)).toBeVisible();

  // an admin may peek at a conversation from the list without opening it
  const listItem = page
    .getByRole('list', { name: 'Atendendo' })
    .getByTestId('ticket-item')
    .filter({ hasText: CONTACT });
  await listItem.getByRole('button', { name: `Mais ações para ${CONTACT}` }).click();
  await page.getByRole('menuitem', { name: 'Espiar Conversa' }).click();
  const spy = page.getByRole('dialog', { name: `Espiar Conversa - ${CONTACT}` });
  await expect(spy.getByRole('list', { name: 'Mensagens' })).toContainText(HELLO);
  await spy.getByRole('button', { name: 'Fechar' }).click();
  await expect(spy).toBeHidden();
  await shot(phone, '32-simulator-reply');

  // the phone layout: the conversation takes the screen, with a way back
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole('button', { name: 'Voltar para a lista' })).toBeVisible();
  await shot(page, '33-ticket-conversation-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // resolve: back to the list; the ticket is among the resolved ones
  await conversation.getByRole('button', { name: 'Resolver' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole('tab', { name: 'Resolvidos' }).click();
  const closed = page.getByRole('list', { name: 'Resolvidos' });
  const closedItem = closed.getByTestId('ticket-item').filter({ hasText: CONTACT });
  await expect(closedItem).toBeVisible();
  await closedItem.getByText(CONTACT, { exact: true }).click();
  await expect(conversation).toBeVisible();
  await expect(conversation.getByText('Conversa encerrada')).toBeVisible();

  // reopen: the ticket is the agent's again and the input is back
  await conversation.getByRole('button', { name: 'Reabrir' }).click();
  await expect(conversation.getByRole('button', { name: 'Resolver' })).toBeVisible();
  await expect(input).toBeEnabled();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/tickets');
  await expect(page.getByRole('tab', { name: /^Atendendo \d+$/ })).toBeVisible();
  await shot(page, '34-tickets-phone');
  expect(dialogs).toEqual([]);
  await phone.close();
});
