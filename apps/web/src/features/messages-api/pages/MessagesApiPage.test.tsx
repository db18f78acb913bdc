import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { changeLanguage, i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { connectionRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { MessagesApiPage } from './MessagesApiPage';

const TOKEN = 'a'.repeat(48);
const admin = sessionUser({
  profile: 'admin',
  company: { plan: { useExternalApi: true } } as never,
});

/** The relative luminance of an `rgb(r, g, b)` or `#rrggbb` colour (WCAG 2.1). */
function luminance(color: string) {
  const parts = color.startsWith('#')
    ? (color.slice(1).match(/../g) ?? []).map((hex) => Number.parseInt(hex, 16))
    : (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  expect(parts.length, color).toBeGreaterThanOrEqual(3);
  const [r, g, b] = parts.slice(0, 3).map((part) => {
    const channel = part / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

beforeAll(async () => {
  await i18n.loadNamespaces(['messagesApi']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
  stubFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/whatsapp') return json(200, [connectionRecord(7, 'Loja', 'CONNECTED')]);
    if (pathname === '/whatsapp/7') {
      return json(200, connectionRecord(7, 'Loja', 'CONNECTED', { token: TOKEN }));
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('pt');
});

describe('MessagesApiPage', () => {
  it('documents the sends with the token hidden, and its regenerate button is readable (AA contrast on white)', async () => {
    renderWithApp(
      <RequireSession>
        <MessagesApiPage />
      </RequireSession>,
    );
    const regenerate = await screen.findByRole(
      'button',
      { name: 'Gerar novo token' },
      { timeout: 5000 },
    );
    // enabled once the connection is known (a disabled button is grey on purpose)
    await waitFor(() => expect((regenerate as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByLabelText('Exemplo de envio de texto com curl').textContent).toContain(
      "Authorization: Bearer <TOKEN>'",
    );
    expect(document.body.textContent).not.toContain(TOKEN);
    // MUI draws the outlined colour through a custom property
    const style = getComputedStyle(regenerate);
    const color = style.color.replace(/^var\((--[\w-]+)\)$/, (_, name: string) =>
      style.getPropertyValue(name).trim(),
    );
    const text = luminance(color);
    const white = 1;
    expect((white + 0.05) / (text + 0.05)).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['pt', 'Exemplo de envio de mídia com curl', '/caminho/arquivo.pdf'],
    ['en', 'Example of a media send with curl', '/path/to/file.pdf'],
    ['es', 'Ejemplo de envío de medios con curl', '/ruta/al/archivo.pdf'],
  ] as const)(
    'writes the media example in %s, its file path too',
    async (language, label, path) => {
      await changeLanguage(language);
      await i18n.loadNamespaces(['messagesApi']);
      renderWithApp(
        <RequireSession>
          <MessagesApiPage />
        </RequireSession>,
      );
      const example = await screen.findByLabelText(label, {}, { timeout: 5000 });
      expect(example.textContent).toContain(`-F 'medias=@${path}'`);
    },
  );
});
