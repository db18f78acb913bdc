import { expect, type Page, test } from '@playwright/test';
import { api, pairSimulator, shot, signIn, tokenOf } from '../support';

/**
 * Script payloads typed by contacts and agents render as text: message bodies (from the contact
 * and from the agent), contact names, quick replies and tag names. Every payload would set
 * `window.__xss` or open a dialog if the page ever interpreted it as markup.
 */
const BODIES = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '<svg onload=window.__xss=3></svg>',
  '<a href="javascript:window.__xss=4">clique</a> javascript:window.__xss=4',
  '*<img src=x onerror=window.__xss=5>* ~<svg/onload=window.__xss=6>~',
  '"><iframe srcdoc="<script>parent.__xss=7</script>"></iframe>',
  '<details open ontoggle=window.__xss=8>x</details>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=9>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, as typed
  '{{constructor.constructor("window.__xss=10")()}} ${alert(11)}',
  '<style>@import "javascript:alert(12)"</style><body onload=alert(13)>',
];
/** Names are at most 50 characters. */
const NAMES = [
  '<img src=x onerror=window.__xss=21>',
  '<svg onload=alert(22)>',
  '"><script>alert(23)</script>',
];

const stamp = String(Date.now()).slice(-8);
const PHONE = `55117${stamp}`;

async function expectInert(page: Page, dialogs: string[]) {
  expect(dialogs, 'a payload opened a dialog').toEqual([]);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  // No payload became an element: no image, frame or script from message text.
  expect(await page.locator('main iframe, main img[src="x"], main svg[onload]').count()).toBe(0);
}

test('script payloads in messages, contact names, quick replies and tags render as text', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  context.on('page', (opened) => opened.on('dialog', (d) => void dialogs.push(d.message())));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await signIn(page);
  const token = await tokenOf(page);
  const phone = await context.newPage();
  phone.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await pairSimulator(page, phone);
  const connections = await api<{ id: number; name: string }[]>(request, token, 'GET', '/whatsapp');
  const simulator = connections.find((c) => c.name === 'Simulador')!;

  // The contact writes every payload; its profile name is a payload too.
  for (const body of BODIES) {
    await api(
      request,
      token,
      'POST',
      `/simulator/connections/${simulator.id}/phones/${PHONE}/messages`,
      { name: NAMES[0], kind: 'text', body },
    );
  }
  await expect
    .poll(async () => {
      const found = await api<{ tickets: { id: number }[] }>(
        request,
        token,
        'GET',
        `/tickets?showAll=true&searchParam=${PHONE}`,
      );
      return found.tickets.length;
    })
    .toBe(1);
  const [ticket] = (
    await api<{ tickets: { id: number; uuid: string }[] }>(
      request,
      token,
      'GET',
      `/tickets?showAll=true&searchParam=${PHONE}`,
    )
  ).tickets;
  await api(request, token, 'PUT', `/tickets/${ticket!.id}`, { status: 'open' });
  // The agent answers with the payloads too.
  for (const body of BODIES.slice(0, 3)) {
    await api(request, token, 'POST', `/messages/${ticket!.id}`, { body });
  }
  for (const [index, name] of NAMES.entries()) {
    await api(request, token, 'POST', '/contacts', {
      name,
      number: `55116${stamp}${index}`,
    });
    await api(request, token, 'POST', '/tags', { name: `${name}${index}`, color: '#5c6bc0' });
    await api(request, token, 'POST', '/quick-messages', {
      shortcode: `xss${stamp}${index}`,
      message: BODIES[index]!,
      geral: true,
    });
  }

  // The conversation: every payload shows as the text that was sent.
  await page.goto(`/tickets/${ticket!.uuid}`);
  for (const body of BODIES) {
    await expect(page.getByText(body.replace(/[*~]/g, '').slice(0, 20)).first()).toBeVisible();
  }
  await expect(page.getByText(NAMES[0]!).first()).toBeVisible();
  // Quick replies offered from '/' render as text as well.
  const input = page.getByRole('textbox', { name: /mensagem/i });
  await input.fill(`/xss${stamp}`);
  await expect(page.getByText(`xss${stamp}0`).first()).toBeVisible();
  await shot(page, 'xss-conversation');
  await expectInert(page, dialogs);
  await input.fill('');

  await page.goto('/contacts');
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(`55116${stamp}`);
  for (const name of NAMES) await expect(page.getByText(name).first()).toBeVisible();
  await expectInert(page, dialogs);

  await page.goto('/tags');
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(`${NAMES[0]!.slice(0, 8)}`);
  for (const [index, name] of NAMES.entries()) {
    await expect(page.getByText(`${name}${index}`).first()).toBeVisible();
  }
  await expectInert(page, dialogs);

  await page.goto('/quick-messages');
  await page.getByRole('searchbox', { name: 'Pesquisar' }).fill(`xss${stamp}`);
  await expect(page.getByText(`xss${stamp}0`).first()).toBeVisible();
  await expectInert(page, dialogs);

  // The simulator shows the company's replies (and the contact's own payloads) as text.
  await phone.goto('/simulator');
  await phone.getByText(PHONE).first().click();
  await expect(phone.getByText(BODIES[1]!).first()).toBeVisible();
  await shot(phone, 'xss-simulator');
  await expectInert(phone, dialogs);
});
