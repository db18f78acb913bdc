import { expect, test } from '@playwright/test';
import { acceptWaiting, api, pairSimulator, phoneWrites, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const PHONE = `55117${stamp.slice(-8)}`;
const CONTACT = `Cliente ${stamp.slice(-4)}`;
const QUESTION = `Quero trocar o tamanho do pedido ${stamp}`;
const ANSWER = `Claro, qual tamanho você prefere? ${stamp}`;
const MISTAKE = `Mensagem enviada por engano ${stamp}`;
const TAG = `Troca ${stamp.slice(-4)}`;

test('conversation tools: tags and the search tab, reply, delete, emoji; contacts back from the phone', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  await api(request, token, 'POST', '/tags', { name: TAG, color: '#8e24aa' });
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  // a contact writes; the agent accepts
  const log = await phoneWrites(phone, PHONE, CONTACT, QUESTION);

  const { conversation, messages } = await acceptWaiting(page, CONTACT);
  const input = conversation.getByRole('textbox', { name: 'Mensagem' });
  await expect(messages).toContainText(QUESTION);

  // the tag editor: a tag chosen is saved on the ticket and shown on its line in the list
  await conversation.getByRole('combobox', { name: 'Etiquetas do atendimento' }).click();
  await page.getByRole('option', { name: TAG }).click();
  await page.keyboard.press('Escape');
  const line = page
    .getByRole('list', { name: 'Atendendo' })
    .getByTestId('ticket-item')
    .filter({ hasText: CONTACT });
  await expect(line).toContainText(TAG, { timeout: 20_000 });

  // a reply to the contact's message: the phone shows what it answers
  const question = messages.getByRole('listitem').filter({ hasText: QUESTION });
  await question.hover();
  await question.getByRole('button', { name: 'Opções da mensagem' }).click();
  await page.getByRole('menuitem', { name: 'Responder' }).click();
  await expect(conversation.getByText('Respondendo')).toBeVisible();
  await input.fill(ANSWER);
  await input.press('Enter');
  const phoneAnswer = log.getByRole('listitem').filter({ hasText: ANSWER });
  await expect(phoneAnswer).toBeVisible({ timeout: 20_000 });
  await expect(phoneAnswer.getByLabel('Mensagem respondida')).toContainText(QUESTION);

  // an emoji from the picker goes in at the cursor
  await input.fill('Obrigado ');
  await conversation.getByRole('button', { name: 'Emojis' }).click();
  await page.getByRole('group', { name: 'Emojis' }).getByRole('button', { name: '😊' }).click();
  await expect(input).toHaveValue('Obrigado 😊');
  await input.fill('');

  // a message sent by mistake is deleted for everyone: history keeps it marked on both sides
  await input.fill(MISTAKE);
  await input.press('Enter');
  const mistake = messages.getByRole('listitem').filter({ hasText: MISTAKE });
  await expect(mistake).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: MISTAKE })).toBeVisible({
    timeout: 20_000,
  });
  const phoneCount = await log.getByRole('listitem').count();
  await mistake.hover();
  await mistake.getByRole('button', { name: 'Opções da mensagem' }).click();
  await page.getByRole('menuitem', { name: 'Apagar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Apagar mensagem?' });
  await confirm.getByRole('button', { name: 'Apagar' }).click();
  await expect(messages.getByText('Esta mensagem foi apagada')).toBeVisible({ timeout: 20_000 });
  await expect(log.getByText('Mensagem apagada')).toBeVisible({ timeout: 20_000 });
  await expect(log.getByRole('listitem')).toHaveCount(phoneCount);
  await shot(page, '38-conversation-reply-and-delete');

  // the search tab: by the tag alone, then by a word of the conversation
  await page.getByRole('tab', { name: 'Busca' }).click();
  const found = page.getByRole('list', { name: 'Busca' }).getByTestId('ticket-item');
  await page.getByRole('combobox', { name: 'Etiquetas', exact: true }).click();
  await page.getByRole('option', { name: TAG }).click();
  await page.keyboard.press('Escape');
  await expect(found).toHaveCount(1, { timeout: 20_000 });
  await expect(found.first()).toContainText(CONTACT);
  await page.getByRole('searchbox', { name: 'Buscar atendimento e mensagens' }).fill('tamanho');
  await expect(found.filter({ hasText: CONTACT })).toBeVisible({ timeout: 20_000 });
  await shot(page, '39-tickets-search-by-tag');

  // the contact is removed (its tickets with it), then imported back from the connection's phone
  const contacts = await api<{ contacts: { id: number; number: string }[] }>(
    request,
    token,
    'GET',
    `/contacts?searchParam=${PHONE}`,
  );
  const contact = contacts.contacts.find((row) => row.number === PHONE)!;
  await api(request, token, 'DELETE', `/contacts/${contact.id}`);
  await page.goto('/contacts');
  const search = page.getByRole('searchbox', { name: 'Pesquisar' });
  await search.fill(PHONE);
  const rows = page.getByRole('row').filter({ hasText: PHONE });
  await expect(rows).toHaveCount(0);
  await page.getByRole('button', { name: 'Importar' }).click();
  await page.getByRole('menuitem', { name: 'Importar do telefone' }).click();
  await expect(page.getByText(/Importação concluída: \d+ importados/)).toBeVisible({
    timeout: 20_000,
  });
  await expect(rows).toHaveCount(1, { timeout: 20_000 });
  await expect(rows.first()).toContainText(CONTACT);
  await shot(page, '40-contacts-imported-from-phone');
  await phone.close();
});
