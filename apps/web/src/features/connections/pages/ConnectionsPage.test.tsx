import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { connectionRecord, queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { useConnectionsRealtime } from '../realtime';
import { ConnectionsPage } from './ConnectionsPage';

// a local time, so the expected dd/MM/yy HH:mm does not depend on the machine's zone
const UPDATED = new Date(2025, 0, 2, 3, 4).toISOString();

const connection = connectionRecord;

const LIST = [
  connection(1, 'Loja', 'qrcode', { qrcode: '2@loja,abc' }),
  connection(2, 'Vendas', 'DISCONNECTED'),
  connection(3, 'Suporte', 'OPENING'),
  connection(4, 'Matriz', 'CONNECTED', { isDefault: true }),
  connection(5, 'Demonstração', 'qrcode', { provider: 'simulator', qrcode: 'SIMULATOR:5:first' }),
  connection(6, 'Filial', 'TIMEOUT', { provider: 'cloud-api' }),
];

const admin = sessionUser({ id: 1, name: 'Admin', profile: 'admin' });

function serve(user = admin, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/whatsapp' && call.method === 'GET') return json(200, LIST);
    if (pathname === '/queue') {
      return json(200, [queueRecord(3, 'Vendas', '#2e7d32'), queueRecord(4, 'Suporte', '#1565c0')]);
    }
    const session = pathname.match(/^\/whatsappsession\/(\d+)$/);
    if (session) {
      const id = Number(session[1]);
      const status = call.method === 'DELETE' ? 'DISCONNECTED' : 'OPENING';
      return json(200, {
        id,
        name: LIST.find((item) => item.id === id)?.name,
        status,
        qrcode: '',
        retries: 0,
        number: '',
        isDefault: false,
        updatedAt: '2025-01-02T03:05:00.000Z',
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function Realtime() {
  useConnectionsRealtime();
  return null;
}

function renderPage() {
  const socket = fakeSocket();
  const view = renderWithApp(
    <SocketContext.Provider value={socket.socket}>
      <RequireSession>
        <Realtime />
        <ConnectionsPage />
      </RequireSession>
    </SocketContext.Provider>,
    { route: '/connections' },
  );
  return { ...view, socket };
}

const rowOf = async (name: string) => {
  const table = await screen.findByRole('table', { name: 'Conexões' });
  const cell = await within(table).findByRole('cell', { name });
  return cell.closest('tr') as HTMLElement;
};

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

// page tests click through dialogs: slow on a busy machine, so more than the 5 s default
describe('ConnectionsPage', { timeout: 20_000 }, () => {
  it('shows each status with its icon text, provider, last update and default flag', async () => {
    serve();
    renderPage();
    const loja = await rowOf('Loja');
    expect(within(loja).getByText('Aguardando leitura do QR Code')).toBeTruthy();
    expect(within(loja).getByText('WhatsApp Web')).toBeTruthy();
    // 03:04 UTC on the company's clock (São Paulo, the default zone)
    expect(within(loja).getByText('02/01/25 00:04')).toBeTruthy();
    expect(within(await rowOf('Demonstração')).getByText('Simulador')).toBeTruthy();
    expect(within(await rowOf('Filial')).getByText('WhatsApp Cloud API')).toBeTruthy();
    expect(within(await rowOf('Filial')).getByText('Tempo esgotado')).toBeTruthy();
    const matriz = await rowOf('Matriz');
    expect(within(matriz).getByText('Conectado')).toBeTruthy();
    expect(within(matriz).getByRole('img', { name: 'Conexão padrão' })).toBeTruthy();
    expect(within(loja).queryByRole('img', { name: 'Conexão padrão' })).toBeNull();
  });

  it('offers the session actions of each status', async () => {
    const calls = serve();
    renderPage();

    expect(within(await rowOf('Loja')).getByRole('button', { name: 'QR CODE' })).toBeTruthy();
    const connecting = within(await rowOf('Suporte')).getByRole('button', { name: 'Conectando' });
    expect((connecting as HTMLButtonElement).disabled).toBe(true);
    expect(within(await rowOf('Filial')).getByRole('button', { name: 'Desconectar' })).toBeTruthy();

    const vendas = await rowOf('Vendas');
    fireEvent.click(within(vendas).getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/whatsappsession/2')),
    );
    // the answer moves the row to OPENING
    await waitFor(() =>
      expect(within(vendas).getByRole('button', { name: 'Conectando' })).toBeTruthy(),
    );
    expect(within(vendas).getByText('02/01/25 00:05')).toBeTruthy();

    const matriz = await rowOf('Matriz');
    fireEvent.click(within(matriz).getByRole('button', { name: 'Desconectar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Desconectar Matriz?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Desconectar' }));
    expect(await screen.findByText('Conexão desconectada.')).toBeTruthy();
    expect(
      calls.find((c) => c.method === 'DELETE' && c.url.pathname === '/whatsappsession/4'),
    ).toBeTruthy();
    await waitFor(() => expect(within(matriz).getByText('Desconectado')).toBeTruthy());
    // the confirmation hides the page from screen readers until it has faded out
    fireEvent.click(await within(matriz).findByRole('button', { name: 'Novo QR CODE' }));
    await waitFor(() =>
      expect(
        calls.find((c) => c.method === 'PUT' && c.url.pathname === '/whatsappsession/4'),
      ).toBeTruthy(),
    );
  });

  it('gives a plain user the session actions but no disconnect, edit or delete', async () => {
    serve(sessionUser({ profile: 'user' }));
    renderPage();
    const matriz = await rowOf('Matriz');
    expect(within(matriz).queryByRole('button', { name: 'Desconectar' })).toBeNull();
    expect(within(await rowOf('Vendas')).getByRole('button', { name: 'Tentar novamente' }));
    expect(screen.queryByRole('button', { name: 'Editar Matriz' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Excluir Matriz' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Adicionar WhatsApp' })).toBeNull();
  });

  it('shows the QR live and closes the QR dialog when the session has no QR any more', async () => {
    serve();
    const { socket } = renderPage();
    fireEvent.click(within(await rowOf('Demonstração')).getByRole('button', { name: 'QR CODE' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Leia o QR Code para iniciar a sessão',
    });
    const image = within(dialog).getByRole('img', { name: 'QR Code da conexão Demonstração' });
    expect(image.tagName.toLowerCase()).toBe('svg');
    expect(image.querySelector('path')?.getAttribute('d')).toMatch(/^M4 4h1v1h-1z/);
    expect(image.getAttribute('data-qr-value')).toBe('SIMULATOR:5:first');
    // a simulator's QR also shows as text to paste in the simulator
    expect(within(dialog).getByText('Código')).toBeTruthy();
    expect(within(dialog).getByText('SIMULATOR:5:first')).toBeTruthy();
    const link = within(dialog).getByRole('link', { name: 'Abrir simulador' });
    expect(link.getAttribute('href')).toBe('/simulator?connection=5');

    const session = {
      id: 5,
      name: 'Demonstração',
      retries: 0,
      number: '',
      isDefault: false,
    };
    socket.serverEmit('company-1-whatsappSession', {
      action: 'update',
      session: { ...session, status: 'qrcode', qrcode: 'SIMULATOR:5:second', updatedAt: UPDATED },
    });
    // the query cache tells its observers on the next tick
    expect(await within(dialog).findByText('SIMULATOR:5:second')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('img', { name: 'QR Code da conexão Demonstração' })
        .getAttribute('data-qr-value'),
    ).toBe('SIMULATOR:5:second');

    socket.serverEmit('company-1-whatsappSession', {
      action: 'update',
      session: {
        ...session,
        status: 'CONNECTED',
        qrcode: '',
        number: '5511999990000',
        updatedAt: '2025-01-02T03:06:00.000Z',
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await rowOf('Demonstração');
    expect(within(row).getByText('Conectado')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Desconectar' })).toBeTruthy();
  });

  it('follows connections created and deleted elsewhere', async () => {
    serve();
    const { socket } = renderPage();
    await rowOf('Loja');
    socket.serverEmit('company-1-whatsapp', {
      action: 'create',
      whatsapp: connection(9, 'Nova', 'OPENING', { provider: 'simulator' }),
    });
    expect(await rowOf('Nova')).toBeTruthy();
    socket.serverEmit('company-1-whatsapp', { action: 'delete', whatsappId: 1 });
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Loja' })).toBeNull());
  });

  it('adds a connection, validating first and showing the server rules translated', async () => {
    let attempts = 0;
    const calls = serve(admin, (call) => {
      if (call.method !== 'POST' || call.url.pathname !== '/whatsapp') return undefined;
      attempts++;
      if (attempts === 1) return json(400, { error: 'ERR_WAPP_GREETING_REQUIRED' });
      return json(201, connection(10, 'Atendimento', 'OPENING', { provider: 'simulator' }));
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar WhatsApp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar WhatsApp' });

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Muito curto!')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Atendimento' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Provedor' }));
    expect(screen.getByRole('option', { name: 'WhatsApp Web' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'WhatsApp Cloud API' })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: 'Simulador' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Filas' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.keyDown(await screen.findByRole('listbox'), { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(
      await within(dialog).findByText(
        'A mensagem de saudação é obrigatória quando há mais de uma fila.',
      ),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Mensagem de saudação'), {
      target: { value: 'Olá! Escolha uma fila.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Conexão salva com sucesso!')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts[1]?.body).toMatchObject({
      name: 'Atendimento',
      provider: 'simulator',
      isDefault: false,
      greetingMessage: 'Olá! Escolha uma fila.',
      queueIds: [3, 4],
      transferQueueId: null,
      maxUseBotQueues: 3,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await rowOf('Atendimento')).toBeTruthy();
  });

  it('says why the default connection cannot be unset', async () => {
    serve(admin, (call) =>
      call.method === 'PUT' && call.url.pathname === '/whatsapp/4'
        ? json(400, { error: 'ERR_NO_OTHER_WHATSAPP' })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Matriz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    const toggle = within(dialog).getByRole('switch', { name: 'Padrão' }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(dialog).findByText('Deve haver pelo menos uma conexão padrão.'),
    ).toBeTruthy();
  });

  it('deletes a connection after confirmation', async () => {
    const calls = serve(admin, (call) =>
      call.method === 'DELETE' && call.url.pathname === '/whatsapp/2'
        ? new Response(null, { status: 204 })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Vendas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir Vendas?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Conexão excluída com sucesso!')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/whatsapp/2')).toBe(true);
  });
});
