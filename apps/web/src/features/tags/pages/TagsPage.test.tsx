import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import type { TagRow } from '../tags.cache';
import { TagsPage } from './TagsPage';

const XSS = '<img src=x onerror=alert(1)>';
const tag = (id: number, name: string, extra: Partial<TagRow> = {}): TagRow => ({
  id,
  name,
  color: '#1976d2',
  kanban: 0,
  ticketsCount: id * 2,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

const admin = sessionUser({ id: 1, profile: 'admin' });
const agent = sessionUser({ id: 2 });

function serve(me = admin, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, me);
    if (pathname === '/tags' && call.method === 'GET') {
      if (searchParams.get('searchParam')) {
        return json(200, { tags: [tag(9, 'Urgente')], count: 1, hasMore: false });
      }
      return searchParams.get('pageNumber') === '2'
        ? json(200, { tags: [tag(3, XSS, { color: '#ffeb3b' })], count: 3, hasMore: false })
        : json(200, {
            tags: [tag(1, 'Cliente VIP', { kanban: 1 }), tag(2, 'Suporte')],
            count: 3,
            hasMore: true,
          });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <TagsPage />
      </RequireSession>
    </SocketContext.Provider>,
    { route: '/tags' },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['tags']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TagsPage', () => {
  it('lists tags as chips with their ticket counts, page after page, names as text', async () => {
    const calls = serve();
    const { container } = renderPage();
    const table = await screen.findByRole('table', { name: 'Tags' });
    expect(await within(table).findByText(XSS)).toBeTruthy();
    const vip = within(table).getByText('Cliente VIP').closest('tr')!;
    expect(within(vip).getByText('2')).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(
      calls
        .filter((call) => call.url.pathname === '/tags')
        .map((call) => call.url.searchParams.get('pageNumber')),
    ).toEqual(['1', '2']);
  });

  it('searches once the typing pauses', async () => {
    const calls = serve();
    renderPage();
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Pesquisar' }), {
      target: { value: 'Urg' },
    });
    expect(await screen.findByText('Urgente', {}, { timeout: 2000 })).toBeTruthy();
    expect(calls.map((call) => call.url.searchParams.get('searchParam')).filter(Boolean)).toEqual([
      'urg',
    ]);
  });

  it('validates the name (required, at least 3) and saves name, colour and kanban', async () => {
    const calls = serve(admin, (call) =>
      call.method === 'POST' && call.url.pathname === '/tags'
        ? json(201, {
            ...tag(12, 'Retorno', { color: '#d32f2f', kanban: 1 }),
            ticketsCount: undefined,
          })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar tag' });
    const name = within(dialog).getByLabelText('Nome');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(name, { target: { value: 'Retorno' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Usar a cor #d32f2f' }));
    expect((within(dialog).getByLabelText('Cor') as HTMLInputElement).value).toBe('#d32f2f');
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Mostrar como coluna do Kanban' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Tag salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Retorno',
      color: '#d32f2f',
      kanban: 1,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = screen.getByText('Retorno').closest('tr')!;
    expect(within(row).getByText('0')).toBeTruthy();
  });

  it('shows a name already in use on the name field', async () => {
    serve(admin, (call) =>
      call.method === 'PUT'
        ? json(409, {
            error: 'ERR_VALIDATION',
            fields: [{ path: 'body.name', message: 'Already exists' }],
          })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Suporte' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar tag' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Cliente VIP' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Já existe uma tag com este nome')).toBeTruthy();
  });

  it('offers the kanban switch to admins only', async () => {
    serve(agent);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar tag' });
    expect(within(dialog).getByLabelText('Nome')).toBeTruthy();
    expect(within(dialog).queryByRole('switch')).toBeNull();
  });

  it('deletes after confirmation and follows tag events live', async () => {
    const calls = serve(admin, (call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    const { socket, serverEmit } = fakeSocket();
    renderPage(socket);
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Suporte' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir Suporte?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Tag excluída com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/tags/2');
    await waitFor(() => expect(screen.queryByText('Suporte')).toBeNull());

    serverEmit('company-1-tag', { action: 'update', tag: { id: 1, name: 'Cliente Ouro' } });
    expect(await screen.findByText('Cliente Ouro')).toBeTruthy();
  });
});
