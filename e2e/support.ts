import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';
import { API_PORT, SLOT } from './playwright.config';

/** What the journeys share: signing in, screenshots, accessibility, the API, the simulator. */
export const API = `http://127.0.0.1:${API_PORT}`;

/** The payment provider's stand-in this worker's server calls (see global-setup.ts). */
export function asaas() {
  const url = process.env[`E2E_ASAAS_URL_${SLOT}`];
  const key = process.env[`E2E_ASAAS_KEY_${SLOT}`];
  expect(url && key, 'the payment stand-in of this worker').toBeTruthy();
  return { url: url!, key: key! };
}

/**
 * Waits for the page's transitions to end (dialogs fade in, drawers slide in), not for a fixed
 * time. Endless animations (a spinner) are not waited for; a transition replaced by another one
 * rejects, which is fine too.
 */
export async function transitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

export async function shot(page: Page, name: string) {
  await transitionsEnded(page);
  await page.screenshot({
    path: join(import.meta.dirname, 'screenshots', `${name}.png`),
    fullPage: true,
  });
}

export async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill('admin@admin.com');
  await page.getByLabel('Senha').fill('123456');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
}

/** Accessibility rules (WCAG 2.1 AA) on the page's own content, or on `within` (a dialog). */
export async function expectAccessible(page: Page, within = 'main') {
  const result = await new AxeBuilder({ page })
    .include(within)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const found = result.violations.map(
    (item) => `${item.id}: ${item.nodes.map((n) => n.target).join(' | ')}`,
  );
  expect(found).toEqual([]);
}

/** The signed-in page's access token. */
export async function tokenOf(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('token'));
  expect(raw).toBeTruthy();
  return JSON.parse(raw!) as string;
}

/** A JSON call to the API as `token`, failing the journey on an error answer. */
export async function api<T = unknown>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`${API}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(
    true,
  );
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** Pairs the demo simulator connection unless an earlier journey already did. */
export async function pairSimulator(page: Page, phone: Page) {
  await page.goto('/connections');
  const row = page
    .getByRole('table', { name: 'Conexões' })
    .getByRole('row')
    .filter({ hasText: 'Simulador' })
    .first();
  const connected = row.getByText('Conectado', { exact: true });
  const qrButton = row.getByRole('button', { name: 'QR CODE', exact: true });
  const retry = row.getByRole('button', { name: 'Tentar novamente', exact: true });
  await expect(qrButton.or(retry).or(connected)).toBeVisible({ timeout: 30_000 });
  if (await connected.isVisible()) return;
  if (await retry.isVisible()) await retry.click();
  await qrButton.click();
  const dialog = page.getByRole('dialog', { name: 'Leia o QR Code para iniciar a sessão' });
  const code = (await dialog.getByTestId('qr-code-text').textContent())?.trim() ?? '';
  await phone.goto('/simulator');
  await phone.getByLabel('Código do QR code').fill(code);
  await phone.getByRole('button', { name: 'Escanear código colado' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(connected).toBeVisible();
}

/**
 * Pairs the demo simulator connection through the API, as its QR dialog and the simulator page
 * do it (a journey that looks at neither spares their pages); answers the connection's id.
 */
export async function pairSimulatorByApi(request: APIRequestContext, token: string) {
  type Session = { id: number; provider: string; status: string; qrcode: string };
  const connections = await api<Session[]>(request, token, 'GET', '/whatsapp');
  const { id } = connections.find((connection) => connection.provider === 'simulator')!;
  await expect
    .poll(
      async () => {
        const { status, qrcode } = await api<Session>(request, token, 'GET', `/whatsapp/${id}`);
        if (status === 'qrcode' && qrcode) {
          await api(request, token, 'POST', `/simulator/connections/${id}/scan`, { qrcode });
        } else if (status === 'DISCONNECTED' || status === 'TIMEOUT') {
          await api(request, token, 'POST', `/whatsappsession/${id}`);
        }
        return status;
      },
      { timeout: 30_000 },
    )
    .toBe('CONNECTED');
  return id;
}

/** The simulator's phone saves a contact that has not written yet, through its dialog. */
export async function phoneAddsContact(phone: Page, contact: { number: string; name: string }) {
  await phone.goto('/simulator');
  await phone.getByRole('button', { name: 'Novo contato' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Novo contato' });
  await dialog.getByLabel('Número').fill(contact.number);
  await dialog.getByLabel('Nome').fill(contact.name);
  await dialog.getByRole('button', { name: 'Criar contato' }).click();
  await expect(dialog).toBeHidden();
}

/** A picture to send: a 96x64 PNG in WhatsApp green. */
export function picture(): Buffer {
  const [width, height] = [96, 64];
  const line = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) line.set([37, 211, 102], 1 + x * 3);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(8 + body.length);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), 4 + body.length);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => line)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The demo simulator connection, paired, and a way for one of its phones to write to the company
 * through the simulator's API (what its page does).
 */
export async function simulatorPhone(page: Page, context: BrowserContext, number: string) {
  const phone = await context.newPage();
  await pairSimulator(page, phone);
  await phone.close();
  const token = await tokenOf(page);
  const connections = await api<{ id: number; provider: string }[]>(
    page.request,
    token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((connection) => connection.provider === 'simulator')!;
  return {
    token,
    send: (message: Record<string, unknown>) =>
      api(
        page.request,
        token,
        'POST',
        `/simulator/connections/${simulator.id}/phones/${number}/messages`,
        message,
      ),
  };
}

/** Accepts the contact's waiting ticket from the list: its conversation and message list. */
export async function acceptWaiting(page: Page, contact: string) {
  await page.goto('/tickets');
  await page.getByRole('tab', { name: /^Aguardando \d+$/ }).click();
  const item = page
    .getByRole('list', { name: 'Aguardando' })
    .getByTestId('ticket-item')
    .filter({ hasText: contact });
  await expect(item).toBeVisible({ timeout: 20_000 });
  await item.getByRole('button', { name: `Aceitar o atendimento de ${contact}` }).click();
  const conversation = page.getByRole('region', { name: `Conversa com ${contact}` });
  return { conversation, messages: conversation.getByRole('list', { name: 'Mensagens' }) };
}

/**
 * On the simulator page, a new contact of the phone writes `text` to the company; answers the
 * contact's conversation log, where the message is shown.
 */
export async function phoneWrites(phone: Page, number: string, name: string, text: string) {
  await phone.goto('/simulator');
  await phone.getByRole('button', { name: 'Novo contato' }).click();
  const newContact = phone.getByRole('dialog', { name: 'Novo contato' });
  await newContact.getByLabel('Número').fill(number);
  await newContact.getByLabel('Nome').fill(name);
  await newContact.getByRole('button', { name: 'Criar contato' }).click();
  await expect(newContact).toBeHidden();
  await phone.getByLabel(`Mensagem de ${name}`).fill(text);
  await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  const log = phone.getByRole('log', { name: `Conversa de ${name} com a empresa` });
  await expect(log.getByRole('listitem').filter({ hasText: text })).toBeVisible();
  return log;
}

/** A company signed up through the public page, and its admin signed in. */
export async function newCompanyAdmin(page: Page, company: string) {
  const email = `empresa.${Date.now()}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Nome da empresa').fill(`${company} ${Date.now()}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Telefone com DDD').fill('11987654321');
  await page.getByLabel('Senha').fill('segredo1');
  await page.getByLabel('Plano').click();
  await page.getByRole('option', { name: /Plano 1/ }).click();
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The address changes before the sign-in page replaces the sign-up form, whose own Email
  // field would otherwise take the address.
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Senha').fill('segredo1');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  return email;
}

/** Adds an option through the tree's form: under `parent`, or on the first level. */
export async function addQueueOption(
  page: Page,
  parent: string | null,
  option: { title: string; message: string },
) {
  const dialog = page.getByRole('dialog', { name: 'Editar fila' });
  if (parent) {
    await dialog.getByRole('button', { name: `Adicionar opção em ${parent}` }).click();
  } else {
    await dialog.getByRole('button', { name: 'Adicionar opção', exact: true }).click();
  }
  const form = dialog.getByRole('group', {
    name: parent ? `Nova opção em ${parent}` : 'Nova opção',
  });
  await form.getByLabel('Título').fill(option.title);
  await form.getByLabel('Mensagem').fill(option.message);
  await form.getByRole('button', { name: 'Salvar opção' }).click();
  await expect(form).toBeHidden();
}
