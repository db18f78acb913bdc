import { expect, type Locator, test } from '@playwright/test';
import { acceptWaiting, api, pairSimulator, phoneWrites, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const PHONE = `55118${stamp.slice(-8)}`;
const CONTACT = `Retorno ${stamp.slice(-4)}`;
const FIRST = `Meu pedido não chegou ${stamp}`;
const LAST_REPLY = `Pronto, resolvido! ${stamp}`;
const AGAIN = `Voltei: chegou errado ${stamp}`;
/** More replies than a page of messages, so the first one is read by scrolling up. */
const REPLIES = 22;

/** The list's text in the order it is drawn. */
const orderOf = async (messages: Locator, texts: string[]) => {
  const all = await messages.innerText();
  return texts.map((text) => all.indexOf(text));
};

test('a returning contact: the new ticket shows the earlier conversation, with where it ended and began again', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  // the contact writes; the agent accepts, answers and resolves
  await phoneWrites(phone, PHONE, CONTACT, FIRST);
  const first = await acceptWaiting(page, CONTACT);
  await expect(first.messages).toContainText(FIRST);
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const uuid = page.url().split('/').at(-1)!;
  const earlier = await api<{ id: number }>(request, token, 'GET', `/tickets/u/${uuid}`);
  for (let index = 1; index < REPLIES; index += 1) {
    await api(request, token, 'POST', `/messages/${earlier.id}`, {
      body: `Resposta ${index} de ${stamp}`,
      signMessage: false,
    });
  }
  const input = first.conversation.getByRole('textbox', { name: 'Mensagem' });
  await input.fill(LAST_REPLY);
  await input.press('Enter');
  await expect(first.messages).toContainText(LAST_REPLY);
  await first.conversation.getByRole('button', { name: 'Resolver' }).click();
  await expect(page).toHaveURL(/\/tickets$/);

  // the contact writes again: a new ticket, waiting
  await phone.getByLabel(`Mensagem de ${CONTACT}`).fill(AGAIN);
  await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  const { conversation, messages } = await acceptWaiting(page, CONTACT);
  await expect(messages).toContainText(AGAIN, { timeout: 20_000 });
  await expect(page).not.toHaveURL(new RegExp(uuid));

  // the earlier conversation is above, closed where it ended and started again below
  await expect(messages).toContainText(LAST_REPLY);
  await expect(messages.getByText('Conversa encerrada')).toBeVisible();
  await expect(messages.getByText('Conversa iniciada')).toBeVisible();
  const [reply, closed, started, again] = await orderOf(messages, [
    LAST_REPLY,
    'Conversa encerrada',
    'Conversa iniciada',
    AGAIN,
  ]);
  expect(reply).toBeGreaterThanOrEqual(0);
  expect(reply).toBeLessThan(closed!);
  expect(closed).toBeLessThan(started!);
  expect(started).toBeLessThan(again!);
  await shot(page, '60-returning-contact-history');

  // the contact's first message is on an older page: scrolling up brings it
  const scroller = page.getByTestId('messages-scroller');
  await expect(async () => {
    await scroller.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect(messages.getByText(FIRST)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await shot(page, '61-returning-contact-history-top');

  // resolved and reopened, the new ticket keeps its history and the markers
  await conversation.getByRole('button', { name: 'Resolver' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole('tab', { name: 'Resolvidos' }).click();
  await page
    .getByRole('list', { name: 'Resolvidos' })
    .getByTestId('ticket-item')
    .filter({ hasText: CONTACT })
    .first()
    .getByText(CONTACT, { exact: true })
    .click();
  await conversation.getByRole('button', { name: 'Reabrir' }).click();
  await expect(conversation.getByRole('button', { name: 'Resolver' })).toBeVisible();
  await expect(messages).toContainText(AGAIN);
  await expect(messages.getByText('Conversa iniciada')).toBeVisible();
  await expect(messages.getByText('Conversa encerrada')).toBeVisible();
  await phone.close();
});
