import { expect, test } from '@playwright/test';
import {
  api,
  pairSimulator,
  phoneAddsContact,
  phoneWrites,
  picture,
  signIn,
  simulatorPhone,
  tokenOf,
} from '../support';

const stamp = String(Date.now()).slice(-8);
const SAVED = { number: `55219${stamp}`, name: 'Contato Guardado' };
const TALKER = { number: `55318${stamp}`, name: 'Cliente do Evento' };
const PHOTOGRAPHER = { number: `55419${stamp}`, name: 'Cliente da Foto' };

test('the simulator page keeps a contact that has not written yet across a reload', async ({
  page,
  context,
}) => {
  await signIn(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);

  await phoneAddsContact(phone, SAVED);
  await expect(phone.getByLabel(`Mensagem de ${SAVED.name}`)).toBeVisible();

  await phone.reload();
  const list = phone.getByRole('list', { name: 'Contatos do simulador' });
  await expect(list.getByText(SAVED.name)).toBeVisible();
  await list.getByRole('button', { name: new RegExp(`^${SAVED.name}`) }).click();
  await expect(phone.getByLabel(`Mensagem de ${SAVED.name}`)).toBeVisible();
});

test("the phone's conversation hears the company's reply and its deletion by socket events, never asking again", async ({
  page,
  context,
}) => {
  await signIn(page);
  const phone = await context.newPage();
  await pairSimulator(page, phone);
  const log = await phoneWrites(phone, TALKER.number, TALKER.name, 'Vocês entregam hoje?');

  // from here on the page must not read the conversation again: updates come as events
  const reads: string[] = [];
  phone.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'GET' && path.endsWith(`/phones/${TALKER.number}/messages`)) {
      reads.push(path);
    }
  });

  const token = await tokenOf(page);
  let ticketId: number | undefined;
  await expect
    .poll(async () => {
      const pending = await api<{ tickets: { id: number; contact?: { name?: string } }[] }>(
        page.request,
        token,
        'GET',
        '/tickets?status=pending',
      );
      ticketId = pending.tickets.find((ticket) => ticket.contact?.name === TALKER.name)?.id;
      return ticketId;
    })
    .toBeTruthy();

  const reply = await api<{ id: number }>(page.request, token, 'POST', `/messages/${ticketId}`, {
    body: 'Entregamos sim, até as 18h.',
  });
  const answer = log.getByRole('listitem').filter({ hasText: 'Entregamos sim, até as 18h.' });
  await expect(answer).toBeVisible();
  // the page is in front: the phone reads it, and its ticks turn blue
  await expect(answer.getByRole('img', { name: 'Lida' })).toBeVisible();

  await api(page.request, token, 'DELETE', `/messages/${reply.id}`);
  await expect(answer).toBeHidden();
  await expect(log.getByText('Mensagem apagada')).toBeVisible();

  expect(reads).toEqual([]);
});

test("a new image at the end of the phone's conversation is scrolled into view once it has loaded", async ({
  page,
  context,
}) => {
  await signIn(page);
  const { send } = await simulatorPhone(page, context, PHOTOGRAPHER.number);
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 1000, height: 700 });
  const log = await phoneWrites(
    phone,
    PHOTOGRAPHER.number,
    PHOTOGRAPHER.name,
    'Vou mandar uma foto',
  );
  for (let line = 1; line <= 12; line++) {
    await send({ name: PHOTOGRAPHER.name, kind: 'text', body: `Linha ${line} antes da foto` });
  }
  await expect(log.getByText('Linha 12 antes da foto')).toBeVisible();
  await send({
    name: PHOTOGRAPHER.name,
    kind: 'image',
    body: 'A foto do pedido',
    file: { name: 'pedido.png', mimeType: 'image/png', base64: picture().toString('base64') },
  });

  const image = log.getByRole('img', { name: 'A foto do pedido' });
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  // the whole image is inside the scrolled pane, not below its end
  await expect
    .poll(() =>
      image.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const pane = element.closest('[role="log"]')!.parentElement!.getBoundingClientRect();
        return box.height > 0 && box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
      }),
    )
    .toBe(true);
});
