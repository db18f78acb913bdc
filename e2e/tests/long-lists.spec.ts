import { expect, type Locator, type Page, test } from '@playwright/test';
import pg from 'pg';
import { API_PORT, SLOT, slotOf } from '../playwright.config';
import { shot } from '../support';

/**
 * Long lists stay light: a company with thousands of tickets and a conversation of 5,000
 * messages, written straight into the database, and the page keeps only the rows near the
 * viewport in the DOM however many it has loaded.
 */

const TICKETS = 3000;
const MESSAGES = 5000;
const stamp = String(Date.now()).slice(-6);
const EMAIL = `listas${stamp}@example.com`;
const LONG_CONTACT = `Conversa longa ${stamp}`;
const CAMPAIGNS = [
  'Promoção Primavera Supercalifragilística',
  'Reengajamento Clientes Inativos Dezembro',
  'Black Friday Eletrodomésticos',
];

/** The database this worker's server uses (see global-setup.ts). */
function databaseUrl(): string {
  const { database, embeddedPgPort } = slotOf(SLOT);
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${database}`;
    return url.toString();
  }
  return `postgres://postgres:postgres@127.0.0.1:${embeddedPgPort}/atendi`;
}

/**
 * A company whose admin (the demo admin's password) has TICKETS open tickets, the newest one
 * holding MESSAGES messages; set-based SQL, a few statements.
 */
async function seedCompany() {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const one = async (text: string, values: unknown[]) =>
      (await client.query(text, values)).rows[0] as { id: number };
    const company = await one(
      `insert into companies (name, email, plan_id, due_date)
       select $1, $2, plan_id, '2099-12-31' from companies order by id limit 1 returning id`,
      [`Listas longas ${stamp}`, EMAIL],
    );
    const admin = await one(
      `insert into users (company_id, name, email, password_hash, profile, super, all_ticket)
       select $1, 'Admin das listas', $2, password_hash, 'admin', false, 'enabled'
       from users where email = 'admin@admin.com' returning id`,
      [company.id, EMAIL],
    );
    const connection = await one(
      `insert into connections (company_id, name, provider, is_default, status)
       values ($1, 'Simulador das listas', 'simulator', true, 'DISCONNECTED') returning id`,
      [company.id],
    );
    await client.query(
      `insert into contacts (company_id, name, number)
       select $1, case when g = 1 then $3 else 'Cliente ' || g end, '5511' || (900000000 + g)::text
       from generate_series(1, $2::int) g`,
      [company.id, TICKETS, LONG_CONTACT],
    );
    // Contact 1 (the long conversation) has the newest activity.
    await client.query(
      `insert into tickets (company_id, contact_id, whatsapp_id, status, user_id, last_message,
         created_at, updated_at)
       select $1, c.id, $2, 'open', $3, 'mensagem ' || c.rn, now() - c.rn * interval '1 minute',
         now() - c.rn * interval '1 minute'
       from (select id, row_number() over (order by id) rn from contacts where company_id = $1) c`,
      [company.id, connection.id, admin.id],
    );
    await client.query(
      `insert into messages (company_id, ticket_id, contact_id, connection_id, body, from_me, read,
         ack, created_at, updated_at)
       select $1, t.id, t.contact_id, $2, 'mensagem ' || g || ' da conversa longa', g % 2 = 0,
         true, 4, now() - ($3::int - g) * interval '1 second', now() - ($3::int - g) * interval '1 second'
       from generate_series(1, $3::int) g,
         (select t.id, t.contact_id from tickets t join contacts c on c.id = t.contact_id
          where t.company_id = $1 and c.name = $4) t`,
      [company.id, connection.id, MESSAGES, LONG_CONTACT],
    );
    // campaigns whose names are long words, as a phone's narrow table would break them
    await client.query(
      `insert into campaigns (company_id, name, status, whatsapp_id, scheduled_at)
       select $1, name, 'PROGRAMADA', $2, now() + interval '1 day'
       from unnest($3::text[]) name`,
      [company.id, connection.id, CAMPAIGNS],
    );
  } finally {
    await client.end();
  }
}

async function signInAsListsAdmin(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Senha').fill('123456');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
}

/** Rows in the DOM of a virtual list, and how far it can scroll. */
const rowsIn = (scroller: Locator) => scroller.locator(':scope > ul > li').count();

/** Scrolls a list to one end until `loaded()` reaches `atLeast` (each end asks for a page). */
async function loadPages(
  page: Page,
  scroller: Locator,
  to: 'bottom' | 'top',
  loaded: () => number,
  atLeast: number,
) {
  for (let tries = 0; tries < 200 && loaded() < atLeast; tries++) {
    await scroller.evaluate((element, end) => {
      element.scrollTop = end === 'bottom' ? element.scrollHeight : 0;
      element.dispatchEvent(new Event('scroll'));
    }, to);
    await page.waitForTimeout(150);
  }
  expect(loaded()).toBeGreaterThanOrEqual(atLeast);
}

test.beforeAll(async () => {
  await seedCompany();
});

test('thousands of tickets and a 5,000-message conversation keep only visible rows in the DOM', async ({
  page,
}) => {
  test.setTimeout(240_000);
  let ticketsLoaded = 0;
  let messagesLoaded = 0;
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.port !== String(API_PORT) || response.request().method() !== 'GET') return;
    if (url.pathname === '/tickets' && !url.searchParams.has('searchParam')) {
      const body = (await response.json().catch(() => ({}))) as { tickets?: unknown[] };
      if (url.searchParams.get('status') === 'open') ticketsLoaded += body.tickets?.length ?? 0;
    } else if (url.pathname.startsWith('/messages/')) {
      const body = (await response.json().catch(() => ({}))) as { messages?: unknown[] };
      messagesLoaded += body.messages?.length ?? 0;
    }
  });

  await page.goto('/login');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Senha').fill('123456');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  // The assigned tab counts all of them.
  await expect(page.getByRole('tab', { name: /Atendendo/ })).toContainText(String(TICKETS));

  const tickets = page.getByTestId('tickets-scroller');
  await expect(tickets.getByText(LONG_CONTACT)).toBeVisible();
  await loadPages(page, tickets, 'bottom', () => ticketsLoaded, 400);
  const ticketRows = await rowsIn(tickets);
  expect(ticketRows).toBeGreaterThan(0);
  expect(ticketRows).toBeLessThanOrEqual(40);
  // Far down the list the first ticket has left the DOM, and comes back at the top.
  await expect(tickets.getByText(LONG_CONTACT)).toHaveCount(0);
  await tickets.evaluate((element) => {
    element.scrollTop = 0;
    element.dispatchEvent(new Event('scroll'));
  });
  await expect(tickets.getByText(LONG_CONTACT)).toBeVisible();

  await tickets.getByText(LONG_CONTACT).click();
  const messages = page.getByTestId('messages-scroller');
  await expect(messages.getByText(`mensagem ${MESSAGES} da conversa longa`)).toBeVisible();
  await loadPages(page, messages, 'top', () => messagesLoaded, 400);
  const messageRows = await rowsIn(messages);
  expect(messageRows).toBeGreaterThan(0);
  expect(messageRows).toBeLessThanOrEqual(60);
  // The newest message, rendered at first, is out of the DOM while the reader is far up.
  await expect(messages.getByText(`mensagem ${MESSAGES} da conversa longa`)).toHaveCount(0);
  const description = `tickets: ${ticketRows} of ${ticketsLoaded} loaded (${TICKETS} in the list); messages: ${messageRows} of ${messagesLoaded} loaded (${MESSAGES} in the conversation)`;
  test.info().annotations.push({ type: 'rows in the DOM', description });
  console.log(`rows in the DOM: ${description}`);
});

test('a 5,000-message conversation scrolled to its top: the reader keeps their place, one page per scroll', async ({
  page,
}) => {
  test.setTimeout(600_000);
  /** The pages of the conversation asked for, in order. */
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.port !== String(API_PORT) || request.method() !== 'GET') return;
    if (url.pathname.startsWith('/messages/'))
      asked.push(url.searchParams.get('pageNumber') ?? '1');
  });
  await signInAsListsAdmin(page);
  await page.getByTestId('tickets-scroller').getByText(LONG_CONTACT).click();
  const messages = page.getByTestId('messages-scroller');
  const text = (n: number) =>
    messages.getByText(`mensagem ${n} da conversa longa`, { exact: true });
  await expect(text(MESSAGES)).toBeInViewport({ ratio: 1 });
  expect(asked).toEqual(['1']);

  // the attachments strip opens under the conversation: the newest message stays in full view
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.getByTestId('attach-input').setInputFiles([
    { name: 'foto-1.png', mimeType: 'image/png', buffer: png },
    { name: 'foto-2.png', mimeType: 'image/png', buffer: png },
  ]);
  await expect(page.getByRole('list', { name: 'Arquivos anexados' })).toBeVisible();
  await expect(text(MESSAGES)).toBeInViewport({ ratio: 1 });
  await shot(page, 'long-lists-00-attachments-under-newest');

  const pages = MESSAGES / 20;
  for (let next = 2; next <= pages; next += 1) {
    // the oldest message loaded: the reader scrolls up to it, and asks for the page before it
    const oldest = MESSAGES - (next - 1) * 20 + 1;
    await messages.evaluate((element) => {
      element.scrollTop = 0;
    });
    await expect.poll(() => asked.length).toBe(next);
    // the older page is put above: the list stays where the reader was
    await expect.poll(() => messages.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await expect(text(oldest)).toBeInViewport();
    if (next === 2) {
      // at rest, nothing more comes by itself
      await page.waitForTimeout(3_000);
      expect(asked).toHaveLength(2);
      await shot(page, 'long-lists-01-conversation-older-page');
    }
    expect(asked).toHaveLength(next);
  }
  expect(asked).toEqual(Array.from({ length: pages }, (_item, index) => String(index + 1)));

  // the top of the conversation: its first message, and nothing more to ask
  await messages.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(text(1)).toBeInViewport();
  await page.waitForTimeout(2_000);
  expect(asked).toHaveLength(pages);
  const rows = await rowsIn(messages);
  expect(rows).toBeLessThanOrEqual(60);
  await shot(page, 'long-lists-02-conversation-top');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(text(1)).toBeInViewport();
  await shot(page, 'long-lists-03-conversation-top-phone');
  const description = `${asked.length} requests for ${pages} pages of ${MESSAGES} messages; ${rows} rows in the DOM at the top`;
  test.info().annotations.push({ type: 'conversation', description });
  console.log(`conversation: ${description}`);
});

test('a list table of 1,000 contacts keeps only the rows in view in the DOM', async ({ page }) => {
  test.setTimeout(240_000);
  let loaded = 0;
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.port !== String(API_PORT) || url.pathname !== '/contacts') return;
    const body = (await response.json().catch(() => ({}))) as { contacts?: unknown[] };
    loaded += body.contacts?.length ?? 0;
  });
  await signInAsListsAdmin(page);
  await page.goto('/contacts');
  const table = page.getByRole('table', { name: 'Contatos' });
  const firstRow = table.locator('tbody tr[aria-rowindex="2"]');
  await expect(firstRow).toBeVisible();
  const scroller = table.locator('xpath=..');
  await loadPages(page, scroller, 'bottom', () => loaded, 1000);
  const rows = await table.locator('tbody tr[aria-rowindex]').count();
  const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
  expect(rows).toBeGreaterThan(5);
  expect(rows).toBeLessThanOrEqual(40);
  expect(nodes).toBeLessThan(3_000);
  // the rows in the DOM say where they sit in the whole list
  const last = Number(
    await table.locator('tbody tr[aria-rowindex]').last().getAttribute('aria-rowindex'),
  );
  expect(last).toBeGreaterThan(loaded - 40);
  await expect(firstRow).toHaveCount(0);
  await shot(page, 'long-lists-04-contacts-far-down');
  const description = `${rows} rows and ${nodes} DOM nodes with ${loaded} contacts loaded`;
  test.info().annotations.push({ type: 'contacts', description });
  console.log(`contacts: ${description}`);
});

test("on a 390 px phone each row of a list screen is a card: every column's name beside its value, no word broken, nothing sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsListsAdmin(page);
  const screens = [
    {
      path: '/campaigns',
      table: 'Campanhas',
      text: CAMPAIGNS[0]!,
      button: `Editar ${CAMPAIGNS[0]}`,
    },
    { path: '/contacts', table: 'Contatos', text: 'Cliente 10', button: null },
    {
      path: '/users',
      table: 'Usuários',
      text: 'Admin das listas',
      button: 'Editar Admin das listas',
    },
  ];
  for (const { path, table: name, text, button } of screens) {
    await page.goto(path);
    const table = page.getByRole('table', { name });
    // the names drawn beside the values are not read out: a cell is named by its value alone
    const cell = table.getByRole('cell', { name: text, exact: true });
    await expect(cell).toBeVisible({ timeout: 30_000 });
    const layout = await table.evaluate((element) => {
      // a word broken across lines has more than one box
      const broken: string[] = [];
      for (const cell of Array.from(element.querySelectorAll('tbody td'))) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const value = node.textContent ?? '';
          for (const match of value.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set(
              Array.from(range.getClientRects()).map((box) => Math.round(box.top)),
            );
            if (lines.size > 1) broken.push(match[0]);
          }
        }
      }
      // each value of the first card, after the name of its column
      const headers = Array.from(element.querySelectorAll('thead th')).map(
        (header) => header.textContent ?? '',
      );
      const named = Array.from(element.querySelectorAll('tbody tr[aria-rowindex] td[data-label]'))
        .slice(0, headers.length)
        .map((cell) => getComputedStyle(cell, '::before').content);
      const scroller = element.parentElement!;
      return {
        broken,
        headers,
        named,
        scrollerScrolls: scroller.scrollWidth > scroller.clientWidth,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    expect(layout.broken, path).toEqual([]);
    expect(layout.named.length, path).toBeGreaterThan(1);
    for (const content of layout.named) {
      expect(
        layout.headers.some((header) => header && content.includes(header)),
        content,
      ).toBe(true);
    }
    expect(layout.pageWidth, path).toBeLessThanOrEqual(390);
    expect(layout.scrollerScrolls, path).toBe(false);
    // the row's own buttons are on its card: scrolled down to, wholly on the screen
    if (button) {
      const edit = table.getByRole('button', { name: button });
      await edit.scrollIntoViewIfNeeded();
      await expect(edit).toBeInViewport({ ratio: 1 });
    }
    await shot(page, `long-lists-05-phone${path.replaceAll('/', '-')}`);
  }
});
