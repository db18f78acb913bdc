import { type APIRequestContext, expect, test } from '@playwright/test';
import { API, expectAccessible, shot, signIn, tokenOf } from '../support';

async function apiGet(request: APIRequestContext, token: string, path: string) {
  return request.get(`${API}${path}`, { headers: { Authorization: `Bearer ${token}` } });
}

const PHONE = `55119${String(Date.now()).slice(-8)}`;
const CONTACT = 'Cliente Simulado';
const MESSAGE = `Olá, preciso de ajuda ${Date.now()}`;
const REPLY = 'Olá! Em que posso ajudar?';

// It may first end a session an earlier journey paired, then pairs its own.
test.slow();

test('pair the simulator connection through its QR dialog and talk to the company', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  await page.goto('/connections');
  const table = page.getByRole('table', { name: 'Conexões' });
  const row = table.getByRole('row').filter({ hasText: 'Simulador' }).first();
  await expect(row).toBeVisible();

  // A journey before this one may have paired it: this one starts from a session of its own.
  if (await row.getByText('Conectado', { exact: true }).isVisible()) {
    const token = await tokenOf(page);
    const list = (await (await apiGet(request, token, '/whatsapp')).json()) as {
      id: number;
      name: string;
    }[];
    const paired = list.find((item) => item.name === 'Simulador')!;
    const stopped = await request.delete(`${API}/whatsappsession/${paired.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(stopped.ok()).toBe(true);
    await expect(row.getByText('Conectado', { exact: true })).toHaveCount(0);
  }

  // the seeded session starts by itself; a failed start is retried from the page
  const qrButton = row.getByRole('button', { name: 'QR CODE', exact: true });
  const retry = row.getByRole('button', { name: 'Tentar novamente', exact: true });
  await expect(
    qrButton
      .or(retry)
      .or(row.getByText('Conectado', { exact: true }))
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  if (await retry.isVisible()) await retry.click();
  await expect(qrButton).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('Aguardando leitura do QR Code')).toBeVisible();
  await expect(row.getByText('WhatsApp Web')).toHaveCount(0);
  await shot(page, '10-connections-qrcode');

  await qrButton.click();
  const dialog = page.getByRole('dialog', { name: 'Leia o QR Code para iniciar a sessão' });
  await expect(dialog.getByRole('img', { name: 'QR Code da conexão Simulador' })).toBeVisible();
  const code = (await dialog.getByTestId('qr-code-text').textContent())?.trim() ?? '';
  expect(code).toMatch(/^SIMULATOR:/);
  await shot(page, '11-qr-dialog');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(dialog.getByRole('link', { name: 'Abrir simulador' })).toBeVisible();
  await shot(page, '11-qr-dialog-phone');
  await page.setViewportSize({ width: 1280, height: 720 });

  // the phone scans in another tab; the dialog here closes by itself once paired
  const phone = await context.newPage();
  await phone.goto('/simulator');
  await expect(phone.getByRole('heading', { name: 'Simulador de WhatsApp' })).toBeVisible();
  await expect(phone.getByText('Isto é um simulador, não é o WhatsApp.')).toBeVisible();
  await phone.getByLabel('Código do QR code').fill('SIMULATOR:0:wrong');
  await phone.getByRole('button', { name: 'Escanear código colado' }).click();
  await expect(phone.getByRole('alert').filter({ hasText: 'expirou' })).toBeVisible();
  await phone.getByLabel('Código do QR code').fill(code);
  await phone.getByRole('button', { name: 'Escanear código colado' }).click();
  await expect(phone.getByRole('status', { name: 'Status' }).getByText('Conectado')).toBeVisible({
    timeout: 20_000,
  });

  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(row.getByText('Conectado')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Desconectar' })).toBeVisible();
  await shot(page, '12-connections-connected');
  await expectAccessible(page);

  const token = await tokenOf(page);
  const connections = await apiGet(request, token, '/whatsapp');
  expect(connections.ok()).toBe(true);
  const simulator = ((await connections.json()) as { name: string; status: string }[]).find(
    (item) => item.name === 'Simulador',
  );
  expect(simulator?.status).toBe('CONNECTED');

  // a new contact writes to the company
  await phone.getByRole('button', { name: 'Novo contato' }).click();
  const newContact = phone.getByRole('dialog', { name: 'Novo contato' });
  await newContact.getByLabel('Número').fill('123');
  await newContact.getByLabel('Nome').fill(CONTACT);
  await newContact.getByRole('button', { name: 'Criar contato' }).click();
  await expect(newContact.getByText('Informe de 10 a 15 dígitos')).toBeVisible();
  await newContact.getByLabel('Número').fill(PHONE);
  await newContact.getByRole('button', { name: 'Criar contato' }).click();
  await expect(newContact).toBeHidden();

  await phone.getByLabel(`Mensagem de ${CONTACT}`).fill(MESSAGE);
  await phone.getByRole('button', { name: 'Enviar', exact: true }).click();
  const log = phone.getByRole('log', { name: `Conversa de ${CONTACT} com a empresa` });
  const bubble = log.getByRole('listitem').filter({ hasText: MESSAGE });
  await expect(bubble).toBeVisible();
  await expect(bubble.getByRole('img', { name: 'Recebida pela empresa' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(log.getByText('Hoje')).toBeVisible();
  await expect(phone.getByRole('list', { name: 'Contatos do simulador' })).toContainText(CONTACT);
  await shot(phone, '13-simulator-chat');

  // the message reached the company: its pending tickets list it, where that list exists
  const tickets = await apiGet(request, token, '/tickets?status=pending');
  if (tickets.status() === 404) {
    test.info().annotations.push({
      type: 'skipped assertion',
      description:
        'GET /tickets is not served yet: the pending-ticket check of the simulator message was skipped',
    });
  } else {
    expect(tickets.ok()).toBe(true);
    let ticketId: number | undefined;
    await expect
      .poll(async () => {
        const answer = await apiGet(request, token, '/tickets?status=pending');
        const page = (await answer.json()) as {
          tickets?: { id: number; contact?: { name?: string } }[];
        };
        ticketId = page.tickets?.find((ticket) => ticket.contact?.name === CONTACT)?.id;
        return ticketId;
      })
      .toBeTruthy();

    // the company answers; the phone shows the reply and reads it (two blue ticks)
    const reply = await request.post(`${API}/messages/${ticketId}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { body: REPLY },
    });
    if (reply.status() === 404) {
      test.info().annotations.push({
        type: 'skipped assertion',
        description: 'POST /messages/:ticketId is not served yet: the reply ticks were not checked',
      });
    } else {
      expect(reply.status()).toBe(201);
      const answer = log.getByRole('listitem').filter({ hasText: REPLY });
      await expect(answer).toBeVisible({ timeout: 20_000 });
      await expect(answer.getByRole('img', { name: 'Lida' })).toBeVisible({ timeout: 20_000 });
      await phone.mouse.move(0, 0); // no tooltip over the chat
      await shot(phone, '13-simulator-chat-reply');
      await expectAccessible(phone);
    }
  }

  // the same screens on a 375 px phone
  await phone.setViewportSize({ width: 375, height: 812 });
  await expect(phone.getByRole('button', { name: 'Voltar aos contatos' })).toBeVisible();
  await shot(phone, '14-simulator-chat-phone');
  await phone.getByRole('button', { name: 'Voltar aos contatos' }).click();
  await expect(phone.getByRole('list', { name: 'Contatos do simulador' })).toBeVisible();
  await shot(phone, '15-simulator-contacts-phone');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(row.getByText('Conectado')).toBeVisible();
  await shot(page, '16-connections-phone');
  await page.getByRole('button', { name: 'Editar Simulador' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar WhatsApp' });
  await expect(edit.getByLabel('Nome')).toHaveValue('Simulador');
  await shot(page, '17-connection-dialog-phone');
  await edit.getByRole('button', { name: 'Cancelar' }).click();
  await expect(edit).toBeHidden();

  // the phone removes the linked device: both screens see the connection DISCONNECTED
  await phone.getByRole('button', { name: 'Desconectar telefone' }).click();
  await expect(phone.getByRole('status', { name: 'Status' }).getByText('Desconectado')).toBeVisible(
    { timeout: 20_000 },
  );
  await expect(phone.getByRole('button', { name: 'Desconectar telefone' })).toBeHidden();
  await expect(row.getByText('Desconectado')).toBeVisible({ timeout: 20_000 });
  await phone.close();
});
