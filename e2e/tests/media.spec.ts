import { expect, test } from '@playwright/test';
import { API, acceptWaiting, picture, shot, signIn, simulatorPhone } from '../support';

const stamp = String(Date.now());
const PHONE = `55115${stamp.slice(-8)}`;
const CONTACT = `Remetente ${stamp.slice(-4)}`;
const DOCUMENT = `relatorio-${stamp}.pdf`;
const DOCUMENT_BYTES = Buffer.from(`%PDF-1.4\n% relatorio ${stamp}\n%%EOF\n`, 'latin1');

/** Half a second of a 440 Hz tone as 8 kHz 16-bit mono WAV: audio the browser can play. */
function tone(): Buffer {
  const rate = 8000;
  const samples = rate / 2;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return wav;
}

test('media: every kind a contact sends has its viewer in the conversation', async ({
  page,
  context,
}) => {
  await signIn(page);
  const phone = await simulatorPhone(page, context, PHONE);
  const send = (message: Record<string, unknown>) => phone.send({ name: CONTACT, ...message });
  const file = (name: string, mimeType: string, bytes: Buffer) => ({
    name,
    mimeType,
    base64: bytes.toString('base64'),
  });

  await send({ kind: 'text', body: `Vou mandar os arquivos ${stamp}` });
  await send({ kind: 'image', body: 'A foto', file: file('foto.png', 'image/png', picture()) });
  await send({ kind: 'audio', file: file('audio.wav', 'audio/wav', tone()) });
  await send({ kind: 'document', file: file(DOCUMENT, 'application/pdf', DOCUMENT_BYTES) });
  await send({
    kind: 'location',
    location: { latitude: -23.5505, longitude: -46.6333, name: 'Praça da Sé' },
  });
  await send({
    kind: 'contact',
    vcard: `BEGIN:VCARD\nVERSION:3.0\nFN:Maria Souza\nTEL;type=CELL;waid=5511987650000:+55 11 98765-0000\nEND:VCARD`,
  });

  const { messages } = await acceptWaiting(page, CONTACT);
  // the last one sent is in: the six came in order
  await expect(messages.getByRole('listitem').filter({ hasText: 'Maria Souza' })).toBeVisible({
    timeout: 20_000,
  });

  // the image, drawn from its signed address, opens in full in a dialog
  const image = messages.getByRole('button', { name: 'Ver imagem em tamanho real' });
  await expect
    .poll(() => image.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(96);
  await image.click();
  const viewer = page.getByRole('dialog', { name: 'Imagem' });
  await expect(viewer.locator('img')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // the voice note plays in the audio player: the browser reads its half a second
  const audio = messages.locator('audio');
  await expect
    .poll(() => audio.evaluate((player: HTMLAudioElement) => player.duration))
    .toBeCloseTo(0.5, 1);

  // the document downloads under its name, with its bytes
  const link = messages.getByRole('link', { name: `Baixar ${DOCUMENT}` });
  const href = await link.getAttribute('href');
  const downloaded = await page.request.get(new URL(href!, API).toString());
  expect(downloaded.status()).toBe(200);
  expect(Buffer.from(await downloaded.body()).equals(DOCUMENT_BYTES)).toBe(true);
  const download = page.waitForEvent('download');
  await link.click();
  expect((await download).suggestedFilename()).toBe(DOCUMENT);

  // the location opens the map at its coordinates; the contact card shows name and number
  const map = messages.getByRole('link', { name: 'Ver localização' });
  await expect(map).toHaveAttribute('href', /maps\.google\.com\/maps\?q=-23\.5505%2C-46\.6333/);
  const card = messages.getByRole('listitem').filter({ hasText: 'Maria Souza' });
  await expect(card).toContainText('5511987650000');
  // the location shows what the phone sent: the place's name and its coordinates
  const place = messages
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Ver localização' }) });
  await expect(place).toContainText('Praça da Sé');
  await expect(place).toContainText('-23.550500, -46.633300');

  // each bubble's menu button sits beside what the bubble says, never over it
  const bubbles = messages.getByTestId('message');
  for (let index = 0; index < (await bubbles.count()); index++) {
    const covered = await bubbles.nth(index).evaluate((bubble) => {
      const chevron = bubble.querySelector('.message-menu')?.getBoundingClientRect();
      if (!chevron) return [];
      const texts: string[] = [];
      const walker = document.createTreeWalker(bubble, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || node.parentElement?.closest('.message-menu')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const overlaps = Array.from(range.getClientRects()).some(
          (box) =>
            box.left < chevron.right &&
            box.right > chevron.left &&
            box.top < chevron.bottom &&
            box.bottom > chevron.top,
        );
        if (overlaps) texts.push(node.textContent);
      }
      return texts;
    });
    expect(covered, `bubble ${index}`).toEqual([]);
  }
  await shot(page, '41-conversation-media');
});
