import type { User } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { UsersPage } from './UsersPage';

const row = (id: number, name: string, extra: Partial<User> = {}): User => ({
  id,
  name,
  email: `${name.toLowerCase()}@empresa.com`,
  profile: 'user',
  super: false,
  allTicket: 'desabled',
  online: false,
  companyId: 1,
  whatsappId: null,
  queues: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

const admin = sessionUser({ id: 1, name: 'Admin', profile: 'admin' });

function serve(extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/queue') return json(200, [queueRecord(3, 'Vendas', '#2e7d32')]);
    if (pathname === '/whatsapp') return json(500, { error: 'ERR_INTERNAL' });
    if (pathname === '/users' && call.method === 'GET') {
      const search = searchParams.get('searchParam') ?? '';
      if (search) return json(200, { users: [row(8, 'Bianca')], count: 1, hasMore: false });
      return searchParams.get('pageNumber') === '2'
        ? json(200, { users: [row(6, 'Caio')], count: 3, hasMore: false })
        : json(200, {
            users: [row(1, 'Admin', { profile: 'admin' }), row(5, 'Bia')],
            count: 3,
            hasMore: true,
          });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage() {
  return renderWithApp(
    <RequireSession>
      <UsersPage />
    </RequireSession>,
    { route: '/users' },
  );
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UsersPage', () => {
  it('lists users, loading the next page while near the bottom', async () => {
    const calls = serve();
    renderPage();

    const table = await screen.findByRole('table', { name: 'Usuários' });
    expect(await within(table).findByText('Caio')).toBeTruthy();
    expect(within(table).getByText('Bia')).toBeTruthy();
    expect(within(table).getAllByText('bia@empresa.com').length).toBeGreaterThan(0);
    expect(within(table).getByText('Administrador')).toBeTruthy();
    const pagesAsked = calls
      .filter((call) => call.url.pathname === '/users')
      .map((call) => call.url.searchParams.get('pageNumber'));
    expect(pagesAsked).toEqual(['1', '2']);
  });

  it('searches after the typing pauses', async () => {
    const calls = serve();
    renderPage();
    const search = await screen.findByRole('searchbox', { name: 'Pesquisar' });
    fireEvent.change(search, { target: { value: 'BIAN' } });
    expect(await screen.findByText('Bianca', {}, { timeout: 2000 })).toBeTruthy();
    const searches = calls
      .map((call) => call.url.searchParams.get('searchParam'))
      .filter((value) => value);
    // one request for the settled text, none for each keystroke
    expect(searches).toEqual(['bian']);
    expect(screen.queryByText('Caio')).toBeNull();
  });

  it('adds a user through the dialog, validating first', async () => {
    const calls = serve((call) =>
      call.method === 'POST' && call.url.pathname === '/users'
        ? json(
            201,
            row(12, 'Duda', {
              profile: 'admin',
              queues: [{ id: 3, name: 'Vendas', color: '#2e7d32' }],
            }),
          )
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar usuário' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar usuário' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    // the spec's own texts, as it writes them for this form in Portuguese
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
    expect(within(dialog).getByText('Too Short!')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Duda' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), {
      target: { value: 'Duda@Empresa.com' },
    });
    fireEvent.change(within(dialog).getByLabelText('Senha'), { target: { value: 'secret1' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Perfil' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Administrador' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Filas' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas' }));
    fireEvent.keyDown(await screen.findByRole('listbox'), { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Usuário salvo com sucesso!')).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      name: 'Duda',
      email: 'duda@empresa.com',
      password: 'secret1',
      profile: 'admin',
      allTicket: 'desabled',
      whatsappId: null,
      queueIds: [3],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Duda')).toBeTruthy();
  });

  it('edits a user keeping the password when left blank', async () => {
    const calls = serve((call) =>
      call.method === 'PUT' ? json(200, row(5, 'Beatriz')) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Bia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar usuário' });
    const name = within(dialog).getByLabelText('Nome') as HTMLInputElement;
    expect(name.value).toBe('Bia');
    fireEvent.change(name, { target: { value: 'Beatriz' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Beatriz')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.url.pathname).toBe('/users/5');
    expect(put?.body).not.toHaveProperty('password');
    expect(put?.body).toMatchObject({ name: 'Beatriz', email: 'bia@empresa.com', profile: 'user' });
  });

  it('deletes a user after confirmation', async () => {
    const calls = serve((call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Bia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir Bia?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    expect(await screen.findByText('Usuário excluído com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/users/5');
    await waitFor(() => expect(screen.queryByText('Bia')).toBeNull());
  });
});
