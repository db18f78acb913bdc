import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { HelpsPage } from './HelpsPage';

beforeAll(async () => {
  await i18n.loadNamespaces(['helps']);
});
beforeEach(() => localStorage.setItem('token', JSON.stringify('token')));
afterEach(() => vi.unstubAllGlobals());

it('shows a card per video with the count, plays one in a dialog and closes it with Escape', async () => {
  stubFetch((call) => {
    if (call.url.pathname === '/auth/me') return json(200, sessionUser());
    if (call.url.pathname === '/helps/list') {
      return json(200, [
        {
          id: 1,
          title: 'Primeiros passos',
          video: 'abc_123',
          description: 'Conecte',
          createdAt: '',
          updatedAt: '',
        },
        { id: 2, title: 'Filas', video: 'def-456', description: '', createdAt: '', updatedAt: '' },
      ]);
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  renderWithApp(
    <RequireSession>
      <HelpsPage />
    </RequireSession>,
  );
  expect(await screen.findByRole('heading', { name: 'Ajuda (2)' }, { timeout: 5000 })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Assistir Primeiros passos' }));
  const dialog = await screen.findByRole('dialog', { name: 'Primeiros passos' });
  const frame = dialog.querySelector('iframe')!;
  expect(frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/abc_123');
  fireEvent.keyDown(dialog, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});
