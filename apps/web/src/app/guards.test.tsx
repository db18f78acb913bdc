import type { SessionUser } from '@atendi/shared';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { json, stubFetch } from '../test/fetch';
import { renderWithApp, sessionUser } from '../test/render';
import { PublicOnly, RequireAccess, RequireSession } from './guards';
import { toast } from './toast';

const NO_PERMISSION =
  'Você não tem permissão para acessar esta página! Estamos lhe redirecionando.';
const COMPANY_NOT_ALLOWED =
  'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';

function visit(user: SessionUser, route: string) {
  stubFetch((call) => (call.url.pathname === '/auth/me' ? json(200, user) : json(404, {})));
  renderWithApp(
    <RequireSession>
      <Routes>
        <Route path="/" element={<p>home</p>} />
        <Route
          path="/users"
          element={
            <RequireAccess permission="users:manage">
              <p>users page</p>
            </RequireAccess>
          }
        />
        <Route
          path="/kanban"
          element={
            <RequireAccess permission="kanban:use">
              <p>kanban page</p>
            </RequireAccess>
          }
        />
        <Route
          path="/files"
          element={
            <RequireAccess minRole="admin">
              <p>files page</p>
            </RequireAccess>
          }
        />
      </Routes>
    </RequireSession>,
    { route },
  );
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  toast.clear();
});

describe('RequireAccess', () => {
  it("tells a profile short of the page's role that it lacks the permission, then goes home", async () => {
    visit(sessionUser({ profile: 'user' }), '/users');
    expect(await screen.findByText(NO_PERMISSION)).toBeTruthy();
    expect(screen.queryByText(COMPANY_NOT_ALLOWED)).toBeNull();
    expect(screen.queryByText('users page')).toBeNull();
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy();
  });

  it('says the same for a page that names only its least role', async () => {
    visit(sessionUser({ profile: 'user' }), '/files');
    expect(await screen.findByText(NO_PERMISSION)).toBeTruthy();
    expect(screen.queryByText('files page')).toBeNull();
  });

  it("keeps the spec's company message for what the plan leaves out", async () => {
    visit(sessionUser({ profile: 'admin' }), '/kanban');
    expect(await screen.findByText(COMPANY_NOT_ALLOWED)).toBeTruthy();
    expect(screen.queryByText(NO_PERMISSION)).toBeNull();
    expect(screen.queryByText('kanban page')).toBeNull();
  });

  it('opens the page when profile and plan allow it', async () => {
    visit(
      sessionUser({ profile: 'user', company: { plan: { useKanban: true } as never } }),
      '/kanban',
    );
    expect(await screen.findByText('kanban page')).toBeTruthy();
  });
});

describe('PublicOnly', () => {
  it.each(['/login', '/signup'])('sends a signed-in user on %s to the home page', async (route) => {
    stubFetch((call) =>
      call.url.pathname === '/auth/me' ? json(200, sessionUser()) : json(404, {}),
    );
    renderWithApp(
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<p>login page</p>} />
          <Route path="/signup" element={<p>signup page</p>} />
        </Route>
        <Route path="/" element={<p>home</p>} />
        <Route path="/tickets" element={<p>tickets</p>} />
      </Routes>,
      { route },
    );
    expect(await screen.findByText('home')).toBeTruthy();
    expect(screen.queryByText('tickets')).toBeNull();
  });

  it('sends a person who signs in on the login page on to the tickets, as the spec says', async () => {
    localStorage.removeItem('token');
    stubFetch((call) =>
      call.url.pathname === '/auth/login'
        ? json(200, {
            token: 'jwt-token',
            user: sessionUser(),
            dueDateWarning: false,
            daysToDueDate: 30,
          })
        : json(401, { error: 'ERR_SESSION_EXPIRED' }),
    );
    renderWithApp(
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
        </Route>
        <Route path="/" element={<p>home</p>} />
        <Route path="/tickets" element={<p>tickets</p>} />
      </Routes>,
      { route: '/login' },
    );
    fireEvent.change(await screen.findByLabelText('Email'), {
      target: { value: 'ana@empresa.com' },
    });
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('tickets')).toBeTruthy();
    expect(screen.queryByText('home')).toBeNull();
  });
});
