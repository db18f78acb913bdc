import { expect, type Locator, type Page, test } from '@playwright/test';
import { api, expectAccessible, shot, signIn, tokenOf } from '../support';

const stamp = String(Date.now());
const PHONE = `55117${stamp.slice(-8)}`;
const CONTACT = `Kanban ${stamp.slice(-4)}`;
const DOING = `Fazendo ${stamp.slice(-5)}`;
const DONE = `Feito ${stamp.slice(-5)}`;

const lane = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (where: Locator) => where.getByRole('article', { name: new RegExp(CONTACT) });

/** A pointer drag as a person does it: press, move in steps past the threshold, release. */
async function drag(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!;
  const end = (await to.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + 20);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 10, start.y + 30, { steps: 3 });
  await page.mouse.move(end.x + end.width / 2, end.y + 120, { steps: 12 });
  await page.mouse.up();
}

test.slow();

test('kanban: a card moved with the mouse, with the keyboard, and live by another agent', async ({
  page,
  request,
}) => {
  await signIn(page);
  const token = await tokenOf(page);
  for (const name of [DOING, DONE]) {
    await api(request, token, 'POST', '/tags', { name, color: '#ff9800', kanban: 1 });
  }
  // A conversation the admin opened with a new contact (the simulator's path is the
  // conversation journeys'): it lands in 'Em aberto', having no kanban tag.
  const contact = await api<{ id: number }>(request, token, 'POST', '/contacts', {
    name: CONTACT,
    number: PHONE,
  });
  await api(request, token, 'POST', '/tickets', { contactId: contact.id, status: 'open' });

  await page.goto('/kanban');
  // a first visit loads the screen's code and words: slow on a busy machine
  await expect(page.getByRole('heading', { name: 'Kanban', level: 1 })).toBeVisible({
    timeout: 60_000,
  });
  const open = lane(page, 'Em aberto');
  const doing = lane(page, DOING);
  const done = lane(page, DONE);
  await expect(card(open)).toBeVisible();
  await expect(card(open)).toContainText(PHONE);
  await expectAccessible(page);
  await shot(page, 'kanban-01-board');

  // The mouse: from 'Em aberto' to the first tag's lane.
  await drag(page, card(open), doing);
  await expect(page.getByText('Ticket Tag Adicionado com Sucesso!')).toBeVisible();
  await expect(card(doing)).toBeVisible();
  await expect(card(open)).toHaveCount(0);

  // The keyboard: the card's handle, Space, right arrow, Space, each one told to a screen reader.
  const ticketId = Number(
    (await card(doing).getAttribute('aria-label'))!.match(/Ticket (\d+)/)![1],
  );
  const told = page.locator('[id^="DndLiveRegion"]');
  const handle = card(doing).getByRole('button', { name: /^Mover ticket/ });
  await handle.focus();
  await expect(handle).toBeFocused();
  await page.keyboard.press('Space');
  // picked up: over its own lane
  await expect(told).toHaveText(`Ticket ${ticketId} sobre a coluna ${DOING}.`);
  await page.keyboard.press('ArrowRight');
  await expect(told).toHaveText(`Ticket ${ticketId} sobre a coluna ${DONE}.`);
  await page.keyboard.press('Space');
  await expect(told).toHaveText(`Ticket ${ticketId} solto na coluna ${DONE}.`);
  await expect(card(done)).toBeVisible();
  await expect(card(doing)).toHaveCount(0);
  await shot(page, 'kanban-02-moved');

  // Another agent's board moves it back to 'Em aberto': this one follows live.
  const { lista } = await api<{ lista: { id: number; name: string }[] }>(
    request,
    token,
    'GET',
    '/tags/kanban',
  );
  expect(lista.map((tag) => tag.name)).toEqual(expect.arrayContaining([DOING, DONE]));
  await api(request, token, 'DELETE', `/ticket-tags/${ticketId}`);
  await expect(card(open)).toBeVisible();
  await expect(card(done)).toHaveCount(0);

  // 'Ver Ticket' opens the conversation.
  await card(open)
    .getByRole('button', { name: `Ver ticket ${ticketId}`, exact: true })
    .click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);

  // A phone: the lanes scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/kanban');
  await expect(card(lane(page, 'Em aberto'))).toBeVisible({ timeout: 60_000 });
  await shot(page, 'kanban-03-phone');
});
