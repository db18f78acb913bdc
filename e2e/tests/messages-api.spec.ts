import { expect, test } from '@playwright/test';
import {
  API,
  api,
  expectAccessible,
  pairSimulator,
  phoneAddsContact,
  picture,
  shot,
  signIn,
  tokenOf,
} from '../support';

const stamp = String(Date.now()).slice(-8);
const PHONE = { number: `55119${stamp}`, name: 'Sistema Externo' };
const TEXT = `Seu pedido ${stamp} saiu para entrega.`;
const CAPTION = `Comprovante do pedido ${stamp}`;
const FILE_NAME = `comprovante-${stamp}.png`;

test.slow();

test('messages API: the documented sends, the connection token, a test send reaching the phone and its ticket, wrong tokens refused', async ({
  page,
  context,
  request,
}) => {
  await signIn(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);
  // the phone knows the number before anything is sent to it
  await phoneAddsContact(phone, PHONE);

  const token = await tokenOf(page);
  const connections = await api<{ id: number; name: string; provider: string }[]>(
    request,
    token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((connection) => connection.provider === 'simulator')!;
  const before = await api<{ token: string | null }>(
    request,
    token,
    'GET',
    `/whatsapp/${simulator.id}`,
  );
  expect(before.token?.length ?? 0).toBeGreaterThanOrEqual(32);

  await page.goto('/messages-api');
  await expect(
    page.getByRole('heading', { name: 'Documentação para envio de mensagens' }),
  ).toBeVisible({ timeout: 30_000 });

  // Text and media sends, documented with curl: the token stays hidden until asked for.
  const curlText = page.getByLabel('Exemplo de envio de texto com curl');
  await expect(curlText).toContainText(`curl -X POST '${API}/api/messages/send'`);
  await expect(curlText).toContainText("-H 'Authorization: Bearer <TOKEN>'");
  await expect(curlText).toContainText('"number": "5511999999999"');
  const curlMedia = page.getByLabel('Exemplo de envio de mídia com curl');
  await expect(curlMedia).toContainText("-F 'medias=@/caminho/arquivo.pdf'");
  await expect(curlMedia).toContainText("-F 'number=5511999999999'");
  expect(await page.content()).not.toContain(before.token!);

  await page.getByRole('combobox', { name: 'Conexão' }).click();
  await page.getByRole('option', { name: simulator.name }).click();
  const tokenField = page.getByLabel('Token', { exact: true });
  await expect(tokenField).toHaveValue(/^•+$/);
  await page.getByRole('button', { name: 'Mostrar token' }).click();
  await expect(tokenField).toHaveValue(before.token!);
  await expect(curlText).toContainText(`Bearer ${before.token}`);
  await expectAccessible(page);
  await shot(page, 'messages-api-01-docs');

  // A new token: the old one stops working at once.
  await page.getByRole('button', { name: 'Gerar novo token' }).click();
  await page
    .getByRole('dialog', { name: 'Gerar um novo token?' })
    .getByRole('button', { name: 'Gerar novo token' })
    .click();
  await expect(page.getByText('Novo token gerado')).toBeVisible();
  await expect(tokenField).not.toHaveValue(before.token!);
  const fresh = (await tokenField.inputValue()).trim();
  expect(fresh.length).toBeGreaterThanOrEqual(32);
  const after = await api<{ token: string | null }>(
    request,
    token,
    'GET',
    `/whatsapp/${simulator.id}`,
  );
  expect(after.token).toBe(fresh);

  // Wrong, old, empty or missing tokens are all the same 401.
  for (const authorization of [
    `Bearer ${before.token}`,
    `Bearer ${fresh}x`,
    'Bearer ',
    undefined,
  ]) {
    const refused = await request.post(`${API}/api/messages/send`, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
      data: { number: PHONE.number, body: 'não deve chegar' },
    });
    expect(refused.status(), String(authorization)).toBe(401);
  }

  // The page's text form sends as an outside system would, with the connection's token.
  const form = page.getByRole('form', { name: 'Teste de envio de texto' });
  await form.getByLabel('Número').fill(PHONE.number);
  await form.getByLabel('Mensagem').fill(TEXT);
  const answered = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/messages/send') && response.request().method() === 'POST',
  );
  await form.getByRole('button', { name: 'Enviar' }).click();
  const response = await answered;
  expect(response.status()).toBe(200);
  const sent = (await response.json()) as { id: number; ticketId: number };
  await expect(form.getByRole('status')).toHaveText(`Mensagem enviada (id ${sent.id})`);
  await shot(page, 'messages-api-02-sent');

  // It reaches the phone ...
  const log = phone.getByRole('log', { name: `Conversa de ${PHONE.name} com a empresa` });
  await expect(log.getByRole('listitem').filter({ hasText: TEXT })).toBeVisible({
    timeout: 20_000,
  });
  await shot(phone, 'messages-api-03-phone');

  // ... and shows in the contact's ticket like an agent's message.
  const ticket = await api<{ uuid: string; status: string }>(
    request,
    token,
    'GET',
    `/tickets/${sent.ticketId}`,
  );
  await page.goto(`/tickets/${ticket.uuid}`);
  const conversation = page.getByRole('region', { name: /^Conversa com / });
  await expect(conversation.getByRole('list', { name: 'Mensagens' }).getByText(TEXT)).toBeVisible({
    timeout: 20_000,
  });
  await shot(page, 'messages-api-04-ticket');

  // The page's media form sends a file with its caption, the same way: the phone gets the image.
  await page.goto('/messages-api');
  await page.getByRole('combobox', { name: 'Conexão' }).click();
  await page.getByRole('option', { name: simulator.name }).click();
  const media = page.getByRole('form', { name: 'Teste de envio de mídia' });
  await expect(media.getByRole('button', { name: 'Enviar' })).toBeDisabled();
  await media.getByLabel('Número').fill(PHONE.number);
  await media.getByLabel('Legenda').fill(CAPTION);
  await media
    .locator('input[type="file"]')
    .setInputFiles({ name: FILE_NAME, mimeType: 'image/png', buffer: picture() });
  await expect(media.getByText(`Arquivo: ${FILE_NAME}`)).toBeVisible();
  const mediaAnswered = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/messages/send') && response.request().method() === 'POST',
  );
  await media.getByRole('button', { name: 'Enviar' }).click();
  const mediaResponse = await mediaAnswered;
  expect(mediaResponse.status()).toBe(200);
  expect(mediaResponse.request().headers()['content-type']).toMatch(/^multipart\/form-data/);
  const mediaSent = (await mediaResponse.json()) as { id: number; ticketId: number };
  await expect(media.getByRole('status')).toHaveText(`Mensagem enviada (id ${mediaSent.id})`);
  expect(mediaSent.ticketId).toBe(sent.ticketId);
  await shot(page, 'messages-api-05-media-sent');

  const phoneImage = log.getByRole('listitem').filter({ hasText: CAPTION });
  await expect(phoneImage).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(
      () =>
        phoneImage
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      {
        timeout: 20_000,
      },
    )
    .toBe(96);
  await phoneImage.scrollIntoViewIfNeeded();
  await shot(phone, 'messages-api-06-phone-media');
});
