import { expect, type Locator, type Page, test } from '@playwright/test';
import pg from 'pg';
import { API_PORT, E2E_DATABASE } from '../playwright.config';

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

/** The database the test server uses (see global-setup.ts). */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${E2E_DATABASE}`;
    return url.toString();
  }
  return 'postgres://postgres:postgres@127.0.0.1:54366/atendi';
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
  } finally {
    await client.end();
  }
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
