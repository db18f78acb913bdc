import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { acceptWaiting, api, shot, signIn, simulatorPhone } from '../support';

const stamp = String(Date.now());
const FROM = `55118${stamp.slice(-8)}`;
const TO = `55119${stamp.slice(-8)}`;
const WRITER = `Remetente ${stamp.slice(-4)}`;
const TARGET = `Destino ${stamp.slice(-4)}`;
const FIRST = `Meu pedido é o ${stamp}`;
const SECOND = `O endereço é Rua das Flores, 10 (${stamp.slice(-4)})`;

/** A look kept beside the journey's results (e2e/test-results). */
const keep = (page: Page, name: string) =>
  page.screenshot({ path: join(import.meta.dirname, '..', 'test-results', `${name}.png`) });

test('forward: two messages chosen in a conversation reach another contact, in order, marked forwarded', async ({
  page,
  context,
}) => {
  await signIn(page);
  const writer = await simulatorPhone(page, context, FROM);
  await writer.send({ name: WRITER, body: FIRST });
  await writer.send({ name: WRITER, body: SECOND });
  const target = await api<{ id: number }>(page.request, writer.token, 'POST', '/contacts', {
    name: TARGET,
    number: TO,
  });
  expect(target.id).toBeGreaterThan(0);

  const { conversation, messages } = await acceptWaiting(page, WRITER);
  await expect(messages).toContainText(SECOND);

  // the first one's menu starts the choice; the second one is ticked beside it
  const first = messages.getByRole('listitem').filter({ hasText: FIRST });
  await first.hover();
  await first.getByRole('button', { name: 'Opções da mensagem' }).click();
  await page.getByRole('menuitem', { name: 'Encaminhar' }).click();
  await conversation.getByRole('checkbox', { name: `Selecionar: ${SECOND}` }).check();
  const toolbar = conversation.getByRole('toolbar', { name: 'Encaminhar mensagens' });
  await expect(toolbar.getByRole('status')).toHaveText('2 mensagens selecionadas');
  await keep(page, 'forward-1-chosen');
  await toolbar.getByRole('button', { name: 'Encaminhar' }).click();

  const dialog = page.getByRole('dialog', { name: 'Encaminhar 2 mensagens' });
  await dialog.getByRole('combobox', { name: 'Contato' }).fill(TARGET);
  await page.getByRole('option', { name: new RegExp(TARGET) }).click();
  await shot(page, 'forward-dialog');
  await keep(page, 'forward-2-dialog');
  await dialog.getByRole('button', { name: 'Encaminhar' }).click();
  await expect(page.getByText('2 mensagens encaminhadas')).toBeVisible();

  // the agent lands in the target's conversation: both copies, in order, marked forwarded
  const landed = page.getByRole('region', { name: `Conversa com ${TARGET}` });
  const copies = landed.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
  await expect(copies.filter({ hasText: 'Encaminhada' })).toHaveCount(2);
  await expect(copies.filter({ hasText: 'Encaminhada' })).toContainText([FIRST, SECOND]);
  await keep(page, 'forward-3-landed');

  // and the target's phone received them in that order
  const connections = await api<{ id: number; provider: string }[]>(
    page.request,
    writer.token,
    'GET',
    '/whatsapp',
  );
  const simulator = connections.find((connection) => connection.provider === 'simulator')!;
  await expect
    .poll(async () => {
      const received = await api<{ direction: string; body: string }[]>(
        page.request,
        writer.token,
        'GET',
        `/simulator/connections/${simulator.id}/phones/${TO}/messages`,
      );
      return received.filter((m) => m.direction === 'outbound').map((m) => m.body);
    })
    .toEqual([FIRST, SECOND]);
});
