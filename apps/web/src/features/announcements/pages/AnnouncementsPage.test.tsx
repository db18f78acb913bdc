import type { Announcement, SessionUser } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireAccess, RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { toast } from '../../../app/toast';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { AnnouncementsPage } from './AnnouncementsPage';

const record = (id: number, title: string, extra: Partial<Announcement> = {}): Announcement => ({
  id,
  title,
  text: `Texto ${id}`,
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

function serve(user: SessionUser, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/announcements' && call.method === 'GET') {
      return json(200, {
        records: [
          record(1, 'Manutenção', { priority: 1 }),
          record(2, 'Novidade', { priority: 2, mediaName: 'tela.png', mediaPath: '/m/x' }),
          record(3, 'Rascunho', { status: false }),
        ],
        count: 3,
        hasMore: false,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage() {
  return renderWithApp(
    <RequireSession>
      <Routes>
        <Route path="/" element={<p>home</p>} />
        <Route
          path="/announcements"
          element={
            <RequireAccess permission="announcements:manage" deniedAs="company">
              <AnnouncementsPage />
            </RequireAccess>
          }
        />
      </Routes>
    </RequireSession>,
    { route: '/announcements' },
  );
}

const superUser = sessionUser({ profile: 'admin', super: true });

beforeAll(async () => {
  await i18n.loadNamespaces(['announcements']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toast.clear();
});

describe('AnnouncementsPage', () => {
  it('lists title, priority in its colour, attachment and status', async () => {
    serve(superUser);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Informativos' });
    const high = (await within(table).findByText('Manutenção')).closest('tr')!;
    expect(within(high).getByText('Alta')).toBeTruthy();
    expect(within(high).getAllByText('Sem anexo').length).toBeGreaterThan(0);
    const medium = within(table).getByText('Novidade').closest('tr')!;
    expect(within(medium).getByText('Média')).toBeTruthy();
    expect(within(medium).getAllByText('tela.png').length).toBeGreaterThan(0);
    const draft = within(table).getByText('Rascunho').closest('tr')!;
    expect(within(draft).getByText('Baixa')).toBeTruthy();
    expect(within(draft).getByText('Inativo')).toBeTruthy();
  });

  it('requires title and text, then saves with priority 3 by default', async () => {
    const calls = serve(superUser, (call) =>
      call.method === 'POST' ? json(201, record(9, 'Aviso')) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar informativo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar informativo' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect((await within(dialog).findAllByText('Obrigatório')).length).toBe(2);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'Aviso' } });
    fireEvent.change(within(dialog).getByLabelText('Texto'), { target: { value: 'Olá' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Informativo salvo com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Aviso',
      text: 'Olá',
      status: true,
      priority: 3,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("sends a user who is not super home with the spec's toast", async () => {
    serve(sessionUser({ profile: 'admin' }));
    renderPage();
    expect(
      await screen.findByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy();
  });
});
