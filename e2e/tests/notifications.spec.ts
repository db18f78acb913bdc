import { expect, test } from '@playwright/test';
import { signIn, simulatorPhone } from '../support';

const stamp = String(Date.now());

/**
 * The browser's Notification and the chime's gain are watched from inside the page: headless
 * chromium shows no notification and plays no sound a test could observe otherwise.
 */
function watchAlerts() {
  const seen = window as unknown as {
    __notifications: { title: string; body: string; click: () => void }[];
    __chimes: number[];
  };
  seen.__notifications = [];
  seen.__chimes = [];
  class RecordedNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      seen.__notifications.push({
        title,
        body: options?.body ?? '',
        click: () => this.onclick?.(),
      });
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { value: RecordedNotification });
  const ramp = AudioParam.prototype.exponentialRampToValueAtTime;
  AudioParam.prototype.exponentialRampToValueAtTime = function (value, endTime) {
    // the chime rises to 0.3 x volume, then fades to 0.0001
    if (value > 0.001) seen.__chimes.push(Math.round(value * 1000) / 1000);
    return ramp.call(this, value, endTime);
  };
}

type Seen = {
  __notifications: { title: string; body: string; click: () => void }[];
  __chimes: number[];
};

test('notifications: on any screen, a message on a ticket not on screen chimes at the chosen volume and raises a browser notification', async ({
  page,
  context,
}) => {
  await page.addInitScript(watchAlerts);
  await signIn(page);
  const name = `Aviso ${stamp.slice(-4)}`;
  const phone = await simulatorPhone(page, context, `55116${stamp.slice(-8)}`);
  const write = (body: string) => phone.send({ name, body });
  const chimes = () => page.evaluate(() => (window as unknown as Seen).__chimes);
  const notifications = () =>
    page.evaluate(() =>
      (window as unknown as Seen).__notifications.map(({ title, body }) => ({ title, body })),
    );
  const click = (index: number) =>
    page.evaluate((at) => (window as unknown as Seen).__notifications[at]!.click(), index);

  // on the contacts page, at half volume, once its realtime connection is in (it says the user
  // is online: the server joined it to its rooms before)
  const online = page.waitForEvent('websocket').then(
    (socket) =>
      new Promise<void>((resolve) =>
        socket.on('framereceived', (frame) => {
          if (String(frame.payload).includes('"presence"')) resolve();
        }),
      ),
  );
  await page.goto('/contacts');
  await online;
  await page.evaluate(() => localStorage.setItem('volume', '0.5'));
  const first = `Alguém pode me ajudar? ${stamp}`;
  await write(first);
  await expect.poll(chimes).toEqual([0.15]);
  await expect.poll(notifications).toEqual([{ title: `Mensagem de ${name}`, body: first }]);

  // its click brings the waiting line, where the ticket is accepted
  await click(0);
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole('tab', { name: /^Aguardando \d+$/ }).click();
  const item = page
    .getByRole('list', { name: 'Aguardando' })
    .getByTestId('ticket-item')
    .filter({ hasText: name });
  await item.getByRole('button', { name: `Aceitar o atendimento de ${name}` }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  const ticketUrl = page.url();

  // the conversation on screen is being read: no alert
  const seenHere = `Obrigado, estou vendo ${stamp}`;
  await write(seenHere);
  const conversation = page.getByRole('region', { name: `Conversa com ${name}` });
  await expect(conversation.getByRole('list', { name: 'Mensagens' })).toContainText(seenHere);
  expect(await chimes()).toEqual([0.15]);
  expect(await notifications()).toHaveLength(1);

  // elsewhere again: the open ticket's notification opens its conversation
  await page.getByRole('link', { name: 'Contatos', exact: true }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await write(`Ainda aí? ${stamp}`);
  await expect.poll(chimes).toEqual([0.15, 0.15]);
  await expect.poll(async () => (await notifications()).length).toBe(2);
  await click(1);
  await expect(page).toHaveURL(ticketUrl);

  // muted: the notification still comes, the chime does not
  await page.getByRole('link', { name: 'Contatos', exact: true }).click();
  await page.evaluate(() => localStorage.setItem('volume', '0'));
  await write(`Alô? ${stamp}`);
  await expect.poll(async () => (await notifications()).length).toBe(3);
  expect(await chimes()).toEqual([0.15, 0.15]);
});
