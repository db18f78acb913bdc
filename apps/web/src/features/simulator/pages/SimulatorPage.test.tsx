import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { connectionRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import type { SimulatorMessage } from '../api';
import { SimulatorPage } from './SimulatorPage';

const MARIA = '5511999990000';
const XSS = '<img src=x onerror=alert(1)>';

// Days are the company's (São Paulo here), not the test machine's: the clock reads noon there
// during each test, so 'today' (minutes before noon, in the hours' order) and 'yesterday' hold
// whatever hour the tests run at.
const now = Date.parse('2026-06-10T15:00:00.000Z');
const today = (hour: number) => new Date(now - (12 - hour) * 60_000).toISOString();
const yesterday = new Date(now - 86_400_000).toISOString();

const message = (
  id: number,
  direction: SimulatorMessage['direction'],
  body: string,
  extra: Partial<SimulatorMessage> = {},
): SimulatorMessage => ({
  id,
  direction,
  providerMessageId: `P${id}`,
  kind: 'text',
  body,
  mediaUrl: null,
  fileName: null,
  location: null,
  vcard: null,
  quotedProviderMessageId: null,
  isEdited: false,
  // the phone's own messages: taken and read by the company unless a test says otherwise
  ack: direction === 'outbound' ? 2 : 4,
  isDeleted: false,
  delivered: true,
  createdAt: today(8),
  ...extra,
});

const CONVERSATION = [
  message(1, 'inbound', 'Bom dia', { createdAt: yesterday }),
  message(2, 'outbound', 'Resposta enviada', { ack: 2 }),
  message(3, 'outbound', 'Resposta entregue', { ack: 3 }),
  message(4, 'outbound', 'Resposta lida', { ack: 4 }),
  message(5, 'inbound', XSS, { createdAt: today(9) }),
  message(6, 'inbound', '', {
    kind: 'contact',
    vcard:
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Lima\nTEL;waid=5521988887777:+5521988887777\nEND:VCARD',
    createdAt: today(9),
  }),
];

interface Options {
  status?: string;
  extra?: (call: Call) => Response | undefined;
}

function serve({ status = 'CONNECTED', extra }: Options = {}) {
  // the phone's side of the network: reading moves the replies' ticks
  let conversation = CONVERSATION.map((item) => ({ ...item }));
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, sessionUser({ profile: 'user' }));
    if (pathname === '/simulator/connections') {
      return json(200, [{ id: 5, name: 'Simulador', status, number: '' }]);
    }
    if (pathname === '/simulator/connections/5/phones') {
      return call.method === 'POST'
        ? json(201, call.body)
        : json(200, [{ phone: MARIA, name: 'Maria' }]);
    }
    if (pathname === `/simulator/connections/5/phones/${MARIA}/messages` && call.method === 'GET') {
      const after = Number(call.url.searchParams.get('after') ?? 0);
      return json(
        200,
        conversation.filter((item) => item.id > after),
      );
    }
    if (pathname.endsWith('/read')) {
      const { ack } = call.body as { ack: number };
      conversation = conversation.map((item) =>
        item.direction === 'outbound' ? { ...item, ack: Math.max(item.ack, ack) } : item,
      );
      return json(200, { updated: 2 });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/simulator') {
  const socket = fakeSocket();
  const view = renderWithApp(
    <SocketContext.Provider value={socket.socket}>
      <RequireSession>
        <SimulatorPage />
      </RequireSession>
    </SocketContext.Provider>,
    { route },
  );
  return { ...view, socket };
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

async function openMaria() {
  fireEvent.click(await screen.findByRole('button', { name: /^Maria/ }));
  return screen.findByRole('log', { name: 'Conversa de Maria com a empresa' });
}

const bubble = (log: HTMLElement, text: string) =>
  within(log).getByText(text).closest('li') as HTMLElement;

beforeEach(() => {
  vi.setSystemTime(now);
  localStorage.setItem('token', JSON.stringify('token'));
  setVisibility('hidden');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setVisibility('visible');
});

// page tests click through dialogs: slow on a busy machine, so more than the 5 s default
describe('SimulatorPage', { timeout: 20_000 }, () => {
  it('says it is a simulator, not WhatsApp', async () => {
    serve();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Simulador de WhatsApp' })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain(
      'Isto é um simulador, não é o WhatsApp.',
    );
    expect((await screen.findByRole('status', { name: 'Status' })).textContent).toContain(
      'Conectado',
    );
    expect(screen.getByRole('button', { name: 'Desconectar telefone' })).toBeTruthy();
  });

  it('renders the company replies with their ticks, day separators and cards', async () => {
    serve({
      // 'Bom dia' was taken by the company but no agent has read it yet
      extra: (call) =>
        call.method === 'GET' && call.url.pathname.endsWith(`/phones/${MARIA}/messages`)
          ? json(
              200,
              CONVERSATION.map((item) => (item.id === 1 ? { ...item, ack: 1 } : item)),
            )
          : undefined,
    });
    renderPage();
    const log = await openMaria();
    await within(log).findByText('Resposta lida');

    expect(
      within(bubble(log, 'Resposta enviada')).getByRole('img', { name: 'Enviada' }),
    ).toBeTruthy();
    expect(
      within(bubble(log, 'Resposta entregue')).getByRole('img', { name: 'Entregue' }),
    ).toBeTruthy();
    const read = within(bubble(log, 'Resposta lida')).getByRole('img', { name: 'Lida' });
    expect(read.getAttribute('data-ticks')).toBe('read');
    expect(bubble(log, 'Bom dia').getAttribute('data-direction')).toBe('inbound');
    expect(
      within(bubble(log, 'Bom dia')).getByRole('img', { name: 'Recebida pela empresa' }),
    ).toBeTruthy();
    // An agent opened the ticket: the company's read receipt turns the phone's message blue.
    const readByCompany = within(bubble(log, XSS)).getByRole('img', {
      name: 'Lida pela empresa',
    });
    expect(readByCompany.getAttribute('data-ticks')).toBe('readByCompany');

    expect(within(log).getByText('Ontem')).toBeTruthy();
    expect(within(log).getByText('Hoje')).toBeTruthy();
    expect(within(log).getByRole('group', { name: 'Cartão de contato' }).textContent).toContain(
      'João Lima',
    );
  });

  it('shows a message body as text, never as HTML', async () => {
    serve();
    const { container } = renderPage();
    const log = await openMaria();
    const body = await within(log).findByText(XSS);
    expect(body.textContent).toBe(XSS);
    expect(body.children).toHaveLength(0);
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(document.querySelector('img[onerror]')).toBeNull();
  });

  it('reads the conversation once and follows it by socket events, with no polling', async () => {
    const calls = serve();
    const { socket } = renderPage();
    const log = await openMaria();
    await within(log).findByText('Resposta enviada');
    const reads = () =>
      calls.filter((c) => c.method === 'GET' && c.url.pathname.endsWith('/messages'));
    // a hidden tab marks nothing read, and nothing asks the server again while it waits
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(reads()).toHaveLength(1);
    expect(calls.some((c) => c.url.pathname.endsWith('/read'))).toBe(false);

    // the company answers, then deletes an earlier reply for everyone
    socket.serverEmit('company-1-simulator', {
      action: 'update',
      connectionId: 5,
      phone: MARIA,
      messages: [message(7, 'outbound', 'Chegou agora', { ack: 2, createdAt: today(10) })],
    });
    expect(await within(log).findByText('Chegou agora')).toBeTruthy();
    socket.serverEmit('company-1-simulator', {
      action: 'update',
      connectionId: 5,
      phone: MARIA,
      messages: [message(2, 'outbound', '', { ack: 2, isDeleted: true })],
    });
    await waitFor(() => expect(within(log).queryByText('Resposta enviada')).toBeNull());
    // another phone's or another connection's conversation is left alone
    socket.serverEmit('company-1-simulator', {
      action: 'update',
      connectionId: 6,
      phone: MARIA,
      messages: [message(8, 'outbound', 'De outra conexão')],
    });
    expect(within(log).queryByText('De outra conexão')).toBeNull();
    expect(reads()).toHaveLength(1);

    setVisibility('visible');
    await waitFor(() =>
      expect(within(bubble(log, 'Chegou agora')).getByRole('img', { name: 'Lida' })).toBeTruthy(),
    );
    const read = calls.find((c) => c.url.pathname.endsWith('/read'));
    expect(read?.method).toBe('POST');
    expect(read?.url.pathname).toBe(`/simulator/connections/5/phones/${MARIA}/read`);
    expect(read?.body).toEqual({ ack: 4 });
    expect(reads()).toHaveLength(1);
  });

  it('sends text as the phone and shows it until the company takes it', async () => {
    const calls = serve({
      extra: (call) =>
        call.method === 'POST' && call.url.pathname.endsWith('/messages')
          ? json(
              201,
              message(7, 'inbound', 'Quero comprar', { delivered: false, createdAt: today(10) }),
            )
          : undefined,
    });
    renderPage();
    const log = await openMaria();
    const input = screen.getByRole('textbox', { name: 'Mensagem de Maria' });
    const send = screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
    fireEvent.change(input, { target: { value: '   ' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'Quero comprar' } });
    fireEvent.click(send);

    const sent = await within(log).findByText('Quero comprar');
    expect(
      within(sent.closest('li') as HTMLElement).getByRole('img', { name: 'Aguardando a empresa' }),
    ).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'));
    expect(post?.url.pathname).toBe(`/simulator/connections/5/phones/${MARIA}/messages`);
    expect(post?.body).toEqual({ name: 'Maria', kind: 'text', body: 'Quero comprar' });
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('sends a missed call, a location and a contact card', async () => {
    const calls = serve({
      extra: (call) =>
        call.method === 'POST' && call.url.pathname.endsWith('/messages')
          ? json(201, message(20 + calls.length, 'inbound', ''))
          : undefined,
    });
    renderPage();
    await openMaria();
    const posts = () =>
      calls.filter((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'));

    fireEvent.click(screen.getByRole('button', { name: 'Chamada perdida' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toMatchObject({ kind: 'call_log', body: '' });

    fireEvent.click(screen.getByRole('button', { name: 'Enviar localização' }));
    const location = await screen.findByRole('dialog', { name: 'Enviar localização' });
    fireEvent.change(within(location).getByLabelText('Latitude'), { target: { value: '95' } });
    fireEvent.click(within(location).getByRole('button', { name: 'Enviar' }));
    expect(await within(location).findByText('Latitude entre -90 e 90')).toBeTruthy();
    fireEvent.change(within(location).getByLabelText('Latitude'), { target: { value: '-22,9' } });
    fireEvent.change(within(location).getByLabelText('Longitude'), { target: { value: '-43.2' } });
    fireEvent.change(within(location).getByLabelText('Nome do local (opcional)'), {
      target: { value: 'Loja Centro' },
    });
    fireEvent.click(within(location).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts()[1]?.body).toMatchObject({
      kind: 'location',
      body: 'Loja Centro',
      location: { latitude: -22.9, longitude: -43.2, name: 'Loja Centro' },
    });

    // the closing dialog hides the page from screen readers until it has faded out
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar contato' }));
    const card = await screen.findByRole('dialog', { name: 'Enviar contato' });
    fireEvent.change(within(card).getByLabelText('Nome'), { target: { value: 'Ana' } });
    fireEvent.change(within(card).getByLabelText('Número'), { target: { value: '5511912345678' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(posts()).toHaveLength(3));
    expect(posts()[2]?.body).toMatchObject({ kind: 'contact', body: 'Ana' });
    expect((posts()[2]?.body as { vcard?: string } | undefined)?.vcard).toContain(
      'TEL;type=CELL;type=VOICE;waid=5511912345678:+5511912345678',
    );
  });

  it('refuses a file over 15 MB and sends a smaller one as base64', async () => {
    const calls = serve({
      extra: (call) =>
        call.method === 'POST' && call.url.pathname.endsWith('/messages')
          ? json(201, message(30, 'inbound', '', { kind: 'document', fileName: 'nota.pdf' }))
          : undefined,
    });
    renderPage();
    await openMaria();
    const input = screen.getByTestId('simulator-file');
    const big = new File(['x'], 'video.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 16 * 1024 * 1024 });
    fireEvent.change(input, { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'O arquivo video.mp4 passa de 15 MB e não pode ser enviado.',
    );
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'))).toBe(
      false,
    );

    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'nota.pdf', { type: 'application/pdf' })] },
    });
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'))).toBe(
        true,
      ),
    );
    const post = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'));
    expect(post?.body).toMatchObject({
      kind: 'document',
      file: { name: 'nota.pdf', mimeType: 'application/pdf', base64: btoa('%PDF') },
    });
  });

  it('creates a contact with a 10 to 15 digit number and opens its chat', async () => {
    const calls = serve();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Novo contato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo contato' });
    fireEvent.change(within(dialog).getByLabelText('Número'), { target: { value: '123456789' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Criar contato' }));
    expect(await within(dialog).findByText('Informe de 10 a 15 dígitos')).toBeTruthy();
    expect(within(dialog).getByText('Informe o nome')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Número'), {
      target: { value: '+55 (21) 97777-6666' },
    });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Pedro' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Criar contato' }));
    expect(
      await screen.findByRole('log', { name: 'Conversa de Pedro com a empresa' }),
    ).toBeTruthy();
    // kept by the server, so it is listed again after a reload
    const created = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/phones'));
    expect(created?.url.pathname).toBe('/simulator/connections/5/phones');
    expect(created?.body).toEqual({ phone: '5521977776666', name: 'Pedro' });
    const list = screen.getByRole('list', { name: 'Contatos do simulador' });
    expect(within(list).getByText('+5521977776666')).toBeTruthy();
    expect(within(list).getByText('Maria')).toBeTruthy();
  });

  it('scans the QR code the connection shows, pasted or with one click', async () => {
    const calls = serve({
      status: 'qrcode',
      extra: (call) => {
        if (call.url.pathname === '/whatsapp/5')
          return json(
            200,
            connectionRecord(5, 'Simulador', 'qrcode', {
              provider: 'simulator',
              qrcode: 'SIMULATOR:5:now',
            }),
          );
        if (call.url.pathname === '/simulator/connections/5/scan') {
          const body = call.body as { qrcode: string };
          return body.qrcode === 'SIMULATOR:5:now'
            ? new Response(null, { status: 204 })
            : json(400, { error: 'ERR_VALIDATION' });
        }
        return undefined;
      },
    });
    const { socket } = renderPage();
    const section = await screen.findByRole('region', { name: 'Escanear QR code' });
    fireEvent.change(within(section).getByLabelText('Código do QR code'), {
      target: { value: 'SIMULATOR:5:old' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Escanear código colado' }));
    expect(
      await within(section).findByText(
        'Este QR code expirou ou não é o atual. Copie o código de novo.',
      ),
    ).toBeTruthy();

    fireEvent.click(within(section).getByRole('button', { name: 'Escanear' }));
    expect(await screen.findByText('QR code escaneado. Conectando…')).toBeTruthy();
    const scans = calls.filter((c) => c.url.pathname.endsWith('/scan'));
    expect(scans.map((c) => c.body)).toEqual([
      { qrcode: 'SIMULATOR:5:old' },
      { qrcode: 'SIMULATOR:5:now' },
    ]);

    socket.serverEmit('company-1-whatsappSession', {
      action: 'update',
      session: {
        id: 5,
        name: 'Simulador',
        status: 'CONNECTED',
        qrcode: '',
        retries: 0,
        number: '',
        isDefault: true,
        updatedAt: today(11),
      },
    });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Escanear QR code' })).toBeNull(),
    );
    expect(screen.getByRole('status', { name: 'Status' }).textContent).toContain('Conectado');
  });

  it("replies to a message: the text goes with the quoted message's id and shows the quote", async () => {
    let sent: SimulatorMessage | undefined;
    const calls = serve({
      extra: (call) => {
        if (call.method !== 'POST' || !call.url.pathname.endsWith('/messages')) return undefined;
        const body = call.body as { body: string; quotedProviderMessageId?: string };
        sent = message(40, 'inbound', body.body, {
          delivered: false,
          createdAt: today(10),
          quotedProviderMessageId: body.quotedProviderMessageId ?? null,
        });
        return json(201, sent);
      },
    });
    renderPage();
    const log = await openMaria();
    await within(log).findByText('Resposta lida');
    fireEvent.click(
      within(bubble(log, 'Resposta lida')).getByRole('button', { name: 'Ações da mensagem' }),
    );
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Responder' }));
    const replying = await screen.findByRole('status', { name: 'Respondendo a' });
    expect(replying.textContent).toContain('Resposta lida');

    fireEvent.change(screen.getByRole('textbox', { name: 'Mensagem de Maria' }), {
      target: { value: 'Sobre isso' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Respondendo a' })).toBeNull());
    const post = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/messages'));
    expect(post?.body).toEqual({
      name: 'Maria',
      kind: 'text',
      body: 'Sobre isso',
      quotedProviderMessageId: 'P4',
    });
    const reply = bubble(log, 'Sobre isso');
    expect(within(reply).getByRole('note', { name: 'Mensagem respondida' }).textContent).toContain(
      'Resposta lida',
    );
  });

  it("edits and deletes the phone's own messages for everyone, not the company's", async () => {
    const calls = serve({
      extra: (call) => {
        if (call.url.pathname !== `/simulator/connections/5/phones/${MARIA}/messages/1`) {
          return undefined;
        }
        if (call.method === 'PUT') {
          const { body } = call.body as { body: string };
          return json(200, message(1, 'inbound', body, { createdAt: yesterday, isEdited: true }));
        }
        return json(200, message(1, 'inbound', '', { createdAt: yesterday, isDeleted: true }));
      },
    });
    renderPage();
    const log = await openMaria();
    await within(log).findByText('Bom dia');
    // The company's replies can only be answered.
    fireEvent.click(
      within(bubble(log, 'Resposta enviada')).getByRole('button', { name: 'Ações da mensagem' }),
    );
    expect(await screen.findByRole('menuitem', { name: 'Responder' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Editar' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Apagar para todos' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.click(
      within(bubble(log, 'Bom dia')).getByRole('button', { name: 'Ações da mensagem' }),
    );
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar mensagem' });
    fireEvent.change(within(dialog).getByLabelText('Novo texto'), {
      target: { value: 'Boa tarde' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    const edited = await within(log).findByText('Boa tarde');
    expect(within(edited.closest('li') as HTMLElement).getByText('editada')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ body: 'Boa tarde' });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(
      within(bubble(log, 'Boa tarde')).getByRole('button', { name: 'Ações da mensagem' }),
    );
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Apagar para todos' }));
    expect(await within(log).findByText('Mensagem apagada')).toBeTruthy();
    expect(within(log).queryByText('Boa tarde')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it("'Desconectar telefone' unpairs the phone and the connection shows DISCONNECTED", async () => {
    let status = 'CONNECTED';
    const calls = serve({
      extra: (call) => {
        if (call.url.pathname === '/simulator/connections') {
          return json(200, [{ id: 5, name: 'Simulador', status, number: '' }]);
        }
        if (call.url.pathname === '/simulator/connections/5/disconnect') {
          // the phone removes the linked device; the session reports it
          status = 'DISCONNECTED';
          return new Response(null, { status: 204 });
        }
        return undefined;
      },
    });
    renderPage();
    const state = await screen.findByRole('status', { name: 'Status' });
    await waitFor(() => expect(state.textContent).toContain('Conectado'));
    fireEvent.click(screen.getByRole('button', { name: 'Desconectar telefone' }));

    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Status' }).textContent).toContain('Desconectado'),
    );
    expect(calls.filter((c) => c.url.pathname.endsWith('/disconnect'))).toHaveLength(1);
    expect(calls.find((c) => c.url.pathname.endsWith('/disconnect'))?.method).toBe('POST');
    expect(screen.queryByRole('button', { name: 'Desconectar telefone' })).toBeNull();
    expect(await screen.findByText('Telefone desconectado.')).toBeTruthy();
  });
});
