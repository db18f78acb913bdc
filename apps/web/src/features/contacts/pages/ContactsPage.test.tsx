import { type Contact, companyEvent } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { contactRecord, queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { ticketRow } from '../../tickets/tickets.fixtures';
import { ContactsPage } from './ContactsPage';

const contact = (id: number, name: string, extra: Partial<Contact> = {}): Contact =>
  contactRecord(id, name, `55119999900${String(id).padStart(2, '0')}`, {
    email: `${name.split(' ')[0]!.toLowerCase()}@cliente.com`,
    ...extra,
  });

const XSS = '<img src=x onerror=alert(1)>';
const admin = sessionUser({
  id: 1,
  name: 'Admin',
  profile: 'admin',
  queues: [{ id: 3, name: 'Vendas', color: '#2e7d32' }],
});
const agent = sessionUser({ id: 2, queues: [{ id: 3, name: 'Vendas', color: '#2e7d32' }] });

function serve(me = admin, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, me);
    if (pathname === '/contacts' && call.method === 'GET') {
      const search = searchParams.get('searchParam') ?? '';
      if (search) {
        return json(200, {
          contacts: [contact(8, 'Bianca Lima')],
          count: 1,
          countExact: true,
          hasMore: false,
        });
      }
      return searchParams.get('pageNumber') === '2'
        ? json(200, {
            contacts: [contact(6, 'Silva; "Zé" & Cia', { email: '' }), contact(7, XSS)],
            count: 4,
            countExact: true,
            hasMore: false,
          })
        : json(200, {
            contacts: [contact(1, 'Ana Souza'), contact(5, 'Bia Rocha')],
            count: 4,
            countExact: true,
            hasMore: true,
          });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function TicketShown() {
  const { uuid } = useParams();
  return <p>ticket {uuid}</p>;
}

function renderPage(socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <Routes>
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/tickets/:uuid" element={<TicketShown />} />
        </Routes>
      </RequireSession>
    </SocketContext.Provider>,
    { route: '/contacts' },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['contacts']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ContactsPage', () => {
  it('lists contacts, loading the next page while near the bottom', async () => {
    const calls = serve();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Contatos' });
    expect(await within(table).findByText('Bia Rocha')).toBeTruthy();
    expect(await within(table).findByText('Silva; "Zé" & Cia')).toBeTruthy();
    expect(within(table).getAllByText('5511999990001').length).toBeGreaterThan(0);
    const pagesAsked = calls
      .filter((call) => call.url.pathname === '/contacts')
      .map((call) => call.url.searchParams.get('pageNumber'));
    expect(pagesAsked).toEqual(['1', '2']);
    expect(screen.getByText('Mostrando 4 de 4 contatos')).toBeTruthy();
  });

  it('searches once the typing pauses', async () => {
    const calls = serve();
    renderPage();
    const search = await screen.findByRole('searchbox', { name: 'Pesquisar' });
    fireEvent.change(search, { target: { value: 'Bia' } });
    fireEvent.change(search, { target: { value: 'BIANCA' } });
    expect(await screen.findByText('Bianca Lima', {}, { timeout: 2000 })).toBeTruthy();
    const searches = calls
      .map((call) => call.url.searchParams.get('searchParam'))
      .filter((value) => value);
    expect(searches).toEqual(['bianca']);
    expect(screen.queryByText('Ana Souza')).toBeNull();
  });

  it('renders markup in names as text', async () => {
    serve();
    const { container } = renderPage();
    expect(await screen.findByText(XSS)).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(screen.getByRole('button', { name: `Editar ${XSS}` })).toBeTruthy();
  });

  it('exports every contact of the search as contatos.csv, quoting what needs it', async () => {
    serve();
    let exported: Blob | undefined;
    let fileName = '';
    // the test DOM has no object URLs: keep the file the page hands to the browser
    URL.createObjectURL = (blob: Blob) => {
      exported = blob;
      return 'blob:contatos';
    };
    URL.revokeObjectURL = () => {};
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      fileName = this.download;
    });
    renderPage();
    await screen.findByText('Silva; "Zé" & Cia');
    fireEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(await screen.findByText('Contatos exportados: 4.')).toBeTruthy();
    expect(fileName).toBe('contatos.csv');
    expect(exported?.type).toBe('text/csv;charset=utf-8');
    const text = await exported!.text();
    expect(text.replace(/^\uFEFF/, '')).toBe(
      [
        'name;number;email',
        'Ana Souza;5511999990001;ana@cliente.com',
        'Bia Rocha;5511999990005;bia@cliente.com',
        '"Silva; ""Zé"" & Cia";5511999990006;',
        `${XSS};5511999990007;<img@cliente.com`,
        '',
      ].join('\r\n'),
    );
  });

  it('imports a CSV file and shows how many were imported and skipped', async () => {
    const calls = serve(admin, (call) =>
      call.method === 'POST' && call.url.pathname === '/contacts/import'
        ? json(200, { imported: 3, skipped: 1 })
        : undefined,
    );
    renderPage();
    await screen.findByText('Ana Souza');
    const listsBefore = calls.filter((call) => call.url.pathname === '/contacts').length;
    const file = new File(['name;number;email\nZé;5511988887777;'], 'contatos.csv', {
      type: 'text/csv',
    });
    fireEvent.change(screen.getByLabelText('Arquivo CSV de contatos'), {
      target: { files: [file] },
    });
    expect(
      await screen.findByText('Importação concluída: 3 importados, 1 ignorados.'),
    ).toBeTruthy();
    const upload = calls.find((call) => call.url.pathname === '/contacts/import');
    expect(((upload!.body as FormData).get('file') as File).name).toBe('contatos.csv');
    // the import announces nothing live: the list asks again
    await waitFor(() =>
      expect(calls.filter((call) => call.url.pathname === '/contacts').length).toBeGreaterThan(
        listsBefore,
      ),
    );
  });

  it("imports the phone's contacts from the import menu, with no file", async () => {
    const calls = serve(admin, (call) =>
      call.method === 'POST' && call.url.pathname === '/contacts/import'
        ? json(200, { imported: 12, skipped: 2 })
        : undefined,
    );
    renderPage();
    await screen.findByText('Ana Souza');
    fireEvent.click(screen.getByRole('button', { name: 'Importar' }));
    const menu = await screen.findByRole('menu', { name: 'Importar' });
    expect(within(menu).getByRole('menuitem', { name: 'Importar arquivo CSV' })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Importar do telefone' }));
    expect(
      await screen.findByText('Importação concluída: 12 importados, 2 ignorados.'),
    ).toBeTruthy();
    const imported = calls.find((call) => call.url.pathname === '/contacts/import');
    expect(imported?.method).toBe('POST');
    expect(imported?.body).toBeUndefined();
  });

  it('shows a duplicated number on the number field', async () => {
    const calls = serve(admin, (call) =>
      call.method === 'POST' && call.url.pathname === '/contacts'
        ? json(409, { error: 'ERR_DUPLICATED_CONTACT' })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar contato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar contato' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findAllByText('Obrigatório')).toHaveLength(2);

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Carla' } });
    fireEvent.change(within(dialog).getByLabelText('Número do WhatsApp'), {
      target: { value: '+55 (11) 99999-0001' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar informação' }));
    fireEvent.change(within(dialog).getByLabelText('Nome do campo'), {
      target: { value: 'CPF' },
    });
    fireEvent.change(within(dialog).getByLabelText('Valor'), { target: { value: '123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    const number = within(dialog).getByLabelText('Número do WhatsApp');
    await waitFor(() =>
      expect(number.getAttribute('aria-describedby')).toBe('contact-number-helper-text'),
    );
    expect(await within(dialog).findByText('Já existe um contato com este número.')).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Carla',
      number: '5511999990001',
      email: '',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    expect(screen.getByRole('dialog', { name: 'Adicionar contato' })).toBeTruthy();
  });

  it('lets only admins delete, after confirmation', async () => {
    serve(agent);
    const first = renderPage();
    await screen.findByText('Ana Souza');
    expect(screen.queryByRole('button', { name: 'Excluir Ana Souza' })).toBeNull();
    first.unmount();

    const calls = serve(admin, (call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Ana Souza' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir Ana Souza?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Contato excluído com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/contacts/1');
    await waitFor(() => expect(screen.queryByText('Ana Souza')).toBeNull());
  });

  it('starts a conversation, opening the ticket the contact already has with the caller', async () => {
    const calls = serve(agent, (call) =>
      call.method === 'POST' && call.url.pathname === '/tickets'
        ? json(409, {
            error: 'ERR_OTHER_OPEN_TICKET',
            ticket: { id: 40, uuid: 'u-40', userId: 2, user: { id: 2, name: 'Ana' }, queue: null },
          })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar conversa com Bia Rocha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Iniciar conversa com Bia Rocha' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Iniciar' }));
    expect(await screen.findByText('ticket u-40')).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/tickets')?.body).toEqual({
      contactId: 5,
      status: 'open',
      userId: 2,
      queueId: 3,
    });
  });

  it("names who has the contact's conversation when it is someone else", async () => {
    serve(agent, (call) =>
      call.method === 'POST' && call.url.pathname === '/tickets'
        ? json(409, {
            error: 'ERR_OTHER_OPEN_TICKET',
            ticket: {
              id: 41,
              uuid: 'u-41',
              userId: 9,
              user: { id: 9, name: 'Bruno' },
              queue: { id: 3, name: 'Vendas', color: '#000' },
            },
          })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar conversa com Bia Rocha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Iniciar conversa com Bia Rocha' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Iniciar' }));
    expect(
      await within(dialog).findByText(
        'Este contato já está em atendimento com Bruno na fila Vendas.',
      ),
    ).toBeTruthy();
  });

  it('lets an admin with no queue of its own start in any queue of the company', async () => {
    const calls = serve(sessionUser({ id: 1, profile: 'admin', queues: [] }), (call) => {
      if (call.url.pathname === '/queue')
        return json(200, [
          queueRecord(3, 'Vendas', '#2e7d32'),
          queueRecord(4, 'Suporte', '#1976d2'),
        ]);
      if (call.method === 'POST' && call.url.pathname === '/tickets')
        return json(201, ticketRow(42, { uuid: 'u-42' }));
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar conversa com Bia Rocha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Iniciar conversa com Bia Rocha' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Fila' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Iniciar' }));
    expect(await screen.findByText('ticket u-42')).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === '/tickets')?.body).toEqual({
      contactId: 5,
      status: 'open',
      userId: 1,
      queueId: 4,
    });
  });

  it('asks a user without a queue to pick one before starting', async () => {
    const calls = serve(sessionUser({ id: 3, queues: [] }));
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar conversa com Bia Rocha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Iniciar conversa com Bia Rocha' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Iniciar' }));
    expect(await within(dialog).findByText('Selecione uma fila')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/tickets')).toBe(false);
  });

  it('follows contact events live', async () => {
    serve();
    const { socket, serverEmit } = fakeSocket();
    renderPage(socket);
    await screen.findByText('Ana Souza');
    const event = companyEvent(1, 'contact');
    serverEmit(event, { action: 'update', contact: { ...contact(1, 'Ana Paula') } });
    serverEmit(event, { action: 'create', contact: contact(30, 'Novo Cliente') });
    serverEmit(event, { action: 'delete', contactId: 5 });
    expect(await screen.findByText('Ana Paula')).toBeTruthy();
    expect(screen.getByText('Novo Cliente')).toBeTruthy();
    expect(screen.queryByText('Bia Rocha')).toBeNull();
  });
});
