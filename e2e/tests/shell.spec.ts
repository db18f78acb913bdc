import { expect, type Locator, type Page, test } from '@playwright/test';
import { api, shot, signIn, tokenOf } from '../support';

/** The frame around every page: drawer, top bar, preferences kept in this browser, session end. */

const menu = (page: Page) =>
  page.getByRole('navigation', { name: /^(Menu principal|Main menu|Menú principal)$/ });
/** Whether a click at the element's centre reaches it: nothing is drawn over it there. */
const onTop = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the shell on a wide screen: greeting, due date, drawer, theme, volume, language, version', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1300, height: 800 });
  await signIn(page);
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Bem vindo a')).toBeVisible();
  await expect(banner.getByText('Ativo até 31/12/2099')).toBeVisible();

  // Open by default above 1200 px, with the labels; closing leaves the icons.
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeVisible();
  await expect(menu(page).getByText('Versão 6.0.0', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Fechar menu' }).click();
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeHidden();
  await expect(menu(page).getByRole('link', { name: 'Contatos', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeVisible();

  // Theme: dark and back, kept across a reload.
  const light = await background(page);
  await page.getByRole('button', { name: 'Ativar modo escuro' }).click();
  await expect.poll(() => background(page)).not.toBe(light);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Ativar modo claro' })).toBeVisible();
  await shot(page, 'shell-dark');
  await page.getByRole('button', { name: 'Ativar modo claro' }).click();
  await expect.poll(() => background(page)).toBe(light);

  // Volume: 0 to 1 in steps of 0.1, kept in this browser.
  await page.getByRole('button', { name: 'Volume das notificações' }).click();
  const slider = page.getByRole('slider', { name: 'Volume das notificações' });
  await slider.focus();
  for (let i = 0; i < 3; i++) await slider.press('ArrowLeft');
  await expect(slider).toHaveAttribute('aria-valuenow', '0.7');
  expect(await page.evaluate(() => localStorage.getItem('volume'))).toBe('0.7');
  await page.keyboard.press('Escape');
  await page.reload();
  await page.getByRole('button', { name: 'Volume das notificações' }).click();
  await expect(slider).toHaveAttribute('aria-valuenow', '0.7');
  await expect(slider).toHaveAttribute('aria-valuetext', '70%');
  await page.keyboard.press('Escape');

  // Language: English, then Spanish, then back to Portuguese.
  await page.getByRole('button', { name: 'Idioma' }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(menu(page).getByText('Contacts', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitemradio', { name: 'Español' }).click();
  await expect(menu(page).getByText('Contactos', { exact: true })).toBeVisible();
  await page.reload();
  await expect(menu(page).getByText('Contactos', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Idioma' }).click();
  await page.getByRole('menuitemradio', { name: 'Português' }).click();
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeVisible();
});

test('the drawer starts as icons at 1000 px and is a temporary drawer on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 800 });
  await signIn(page);
  await expect(menu(page).getByRole('link', { name: 'Contatos', exact: true })).toBeVisible();
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeHidden();

  await page.setViewportSize({ width: 375, height: 740 });
  await page.reload();
  await expect(page.getByText('Olá Admin', { exact: true })).toBeVisible();
  await expect(menu(page)).toBeHidden();
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  await expect(menu(page).getByText('Contatos', { exact: true })).toBeVisible();
  await shot(page, 'shell-phone-drawer');
  await menu(page).getByRole('link', { name: 'Contatos', exact: true }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(menu(page)).toBeHidden();
});

test('signing in elsewhere ends this session with the spec message', async ({ page, browser }) => {
  await signIn(page);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  // The message shows for a second before the page reloads to the sign-in: watched from before
  // the other sign-in, which may take longer than that to land on its tickets.
  const told = page
    .getByText('Sua conta foi acessada em outro computador.')
    .waitFor({ state: 'visible' });
  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  await signIn(other);
  await told;
  await reloaded;
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  // and the sign-in page it reloaded to still says why
  await expect(
    page.getByRole('alert').filter({ hasText: 'Sua conta foi acessada em outro computador.' }),
  ).toBeVisible();
  await shot(page, 'shell-session-ended-elsewhere');
  // The newer session goes on.
  await other.goto('/contacts');
  await expect(other.getByRole('heading', { name: 'Contatos' })).toBeVisible();
  await elsewhere.close();
});

for (const [screen, viewport] of [
  ['a wide screen', { width: 1300, height: 520 }],
  ['a 390 px phone', { width: 390, height: 740 }],
] as const) {
  test(`on ${screen}, the menu's headings and the contact drawer cover nothing of what is under them`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    const stamp = `${Date.now()}`.slice(-8);
    const token = await tokenOf(page);
    const contact = await api<{ id: number }>(request, token, 'POST', '/contacts', {
      name: `Gaveta ${stamp}`,
      number: `55119${stamp}`,
    });
    const ticket = await api<{ uuid: string }>(request, token, 'POST', '/tickets', {
      contactId: contact.id,
      status: 'open',
    });

    // The menu scrolled so that 'Campanhas' is at its top: the 'Administração' heading above it
    // scrolls away instead of being drawn over it.
    if (viewport.width < 600) await page.getByRole('button', { name: 'Abrir menu' }).click();
    const campaigns = menu(page).getByRole('link', { name: 'Campanhas', exact: true });
    await campaigns.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await expect.poll(() => onTop(campaigns)).toBe(true);
    await shot(page, `shell-menu-scrolled-${viewport.width}`);
    if (viewport.width < 600) await page.keyboard.press('Escape');

    // The contact drawer's title and close button are in front of the app bar: its close button
    // closes it, and the account menu behind stays shut.
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByTitle(`Dados do contato Gaveta ${stamp}`).click();
    const drawer = page.getByRole('presentation').filter({ hasText: 'Observações' });
    const close = drawer.getByRole('button', { name: 'Fechar' });
    await expect(close).toBeVisible();
    await expect.poll(() => onTop(close)).toBe(true);
    await expect
      .poll(() => onTop(drawer.getByText('Dados do contato', { exact: true })))
      .toBe(true);
    await shot(page, `contact-drawer-${viewport.width}`);
    await close.click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('menu')).toHaveCount(0);
  });
}
