import type { ContactListItem } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { ContactListItemsPage } from './ContactListItemsPage';
import { ContactListsPage } from './ContactListsPage';

const admin = sessionUser({
  id: 1,
  profile: 'admin',
  company: { plan: { useCampaigns: true } as never },
});
const STAMP = '2025-01-01T00:00:00.000Z';
const item = (id: number, name: string, extra: Partial<ContactListItem> = {}): ContactListItem => ({
  id,
  name,
  number: `55119876500${id}`,
  email: '',
  isWhatsappValid: null,
  companyId: 1,
  contactListId: 7,
  createdAt: STAMP,
  updatedAt: STAMP,
  ...extra,
});
const list = { id: 7, name: 'Clientes VIP', contactsCount: 2, createdAt: STAMP, updatedAt: STAMP };

function serve(extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/contact-lists/7') return json(200, list);
    if (pathname === '/contact-lists') {
      return json(200, { records: [list], count: 1, hasMore: false });
    }
    if (pathname === '/contact-list-items') {
      return json(200, {
        contacts: [item(1, 'Ana', { isWhatsappValid: true }), item(2, 'Bruno')],
        count: 2,
        hasMore: false,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderAt(route: string, socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <Routes>
          <Route path="/contact-lists" element={<ContactListsPage />} />
          <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
        </Routes>
      </RequireSession>
    </SocketContext.Provider>,
    { route },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['contactLists']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ContactListsPage', () => {
  it('lists the lists with their counts and the example sheet', async () => {
    serve();
    renderAt('/contact-lists');
    const table = await screen.findByRole('table', { name: 'Listas de contatos' });
    const row = (await within(table).findByText('Clientes VIP')).closest('tr')!;
    expect(within(row).getByText('2')).toBeTruthy();
    expect(
      within(row).getByRole('link', { name: 'Baixar planilha de exemplo' }).getAttribute('href'),
    ).toBe('/planilha.xlsx');
    fireEvent.click(within(row).getByRole('button', { name: 'Contatos de Clientes VIP' }));
    expect(await screen.findByRole('heading', { name: 'Clientes VIP' })).toBeTruthy();
  });
});

describe('ContactListItemsPage', () => {
  it("shows each number's WhatsApp validity to the eye and to a screen reader", async () => {
    serve();
    renderAt('/contact-lists/7/contacts');
    const table = await screen.findByRole('table', { name: 'Clientes VIP' });
    const ana = (await within(table).findByText('Ana')).closest('tr')!;
    expect(within(ana).getByText('Número válido no WhatsApp')).toBeTruthy();
    const bruno = within(table).getByText('Bruno').closest('tr')!;
    expect(within(bruno).getByText('Ainda não verificado no WhatsApp')).toBeTruthy();
  });

  it('imports a sheet after a confirmation, with its progress and summary', async () => {
    let answer: (response: Response) => void = () => {};
    const calls = serve((call) =>
      call.url.pathname === '/contact-lists/7/upload'
        ? (new Promise<Response>((resolve) => {
            answer = resolve;
          }) as unknown as Response)
        : undefined,
    );
    const { socket, serverEmit } = fakeSocket();
    renderAt('/contact-lists/7/contacts', socket);
    await screen.findByText('Ana');
    const file = new File(['numero\n11987654321'], 'clientes.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('Planilha a importar'), { target: { files: [file] } });
    const dialog = await screen.findByRole('dialog', { name: 'Importar planilha' });
    expect(within(dialog).getByText(/clientes\.csv/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'planilha de exemplo' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Importar' }));
    await waitFor(() =>
      expect(calls.some((call) => call.url.pathname === '/contact-lists/7/upload')).toBe(true),
    );
    serverEmit('company-1-ContactListItem', {
      action: 'progress',
      contactListId: 7,
      rows: 500,
      percent: 40,
    });
    expect(await screen.findByText('Importando… 40% (500 linhas lidas)')).toBeTruthy();
    // Found once the confirmation's closing leaves the page to assistive technology again.
    expect(
      await screen.findByRole('progressbar', { name: 'Progresso da importação' }),
    ).toBeTruthy();
    answer(
      json(200, {
        rows: 3,
        imported: 1,
        duplicates: 1,
        invalid: 1,
        invalidRows: [{ row: 4, number: 'abc' }],
      }),
    );
    expect(
      await screen.findByText(
        /3 linhas lidas: 1 importadas, 1 repetidas ignoradas, 1 com número inválido/,
      ),
    ).toBeTruthy();
    expect(screen.getByText('Linha 4: abc')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('explains a refused .xls', async () => {
    serve((call) =>
      call.url.pathname === '/contact-lists/7/upload'
        ? json(415, {
            error: 'ERR_UNSUPPORTED_MEDIA_TYPE',
            fields: [
              {
                path: 'body.file',
                message: 'Legacy .xls is not supported: save the sheet as .xlsx or .csv',
              },
            ],
          })
        : undefined,
    );
    renderAt('/contact-lists/7/contacts');
    await screen.findByText('Ana');
    const file = new File(['x'], 'velha.xls', { type: 'application/vnd.ms-excel' });
    fireEvent.change(screen.getByLabelText('Planilha a importar'), { target: { files: [file] } });
    const dialog = await screen.findByRole('dialog', { name: 'Importar planilha' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Importar' }));
    expect(await screen.findByText(/salve a planilha como \.xlsx ou \.csv/)).toBeTruthy();
  });

  it('follows the items of its list live', async () => {
    serve();
    const { socket, serverEmit } = fakeSocket();
    renderAt('/contact-lists/7/contacts', socket);
    await screen.findByText('Ana');
    serverEmit('company-1-ContactListItem', { action: 'create', record: item(3, 'Carla') });
    serverEmit('company-1-ContactListItem', {
      action: 'create',
      record: item(4, 'De outra lista', { contactListId: 8 }),
    });
    expect(await screen.findByText('Carla')).toBeTruthy();
    serverEmit('company-1-ContactListItem', { action: 'delete', id: 1, contactListId: 7 });
    await waitFor(() => expect(screen.queryByText('Ana')).toBeNull());
    expect(screen.queryByText('De outra lista')).toBeNull();
  });
});
