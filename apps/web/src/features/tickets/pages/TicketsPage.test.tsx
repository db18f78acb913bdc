import type { Ticket } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiBaseUrl } from '../../../app/api';
import { RequireSession } from '../../../app/guards';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { useMessageAlerts } from '../alerts';
import { ticketRow } from '../tickets.fixtures';
import { TicketsPage } from './TicketsPage';

/** The layout's app-wide alerts, mounted beside the page as the layout does. */
function Alerts() {
  useMessageAlerts();
  return null;
}

const agent = sessionUser({ queues: [{ id: 3, name: 'Suporte', color: '#1976d2' }] });
const admin = sessionUser({ id: 1, name: 'Admin', profile: 'admin', queues: [] });

const mine = [ticketRow(1), ticketRow(2, { unreadMessages: 3, lastMessage: 'Oi, tudo bem?' })];
const waiting = ticketRow(5, {
  status: 'pending',
  userId: null,
  user: null,
  contact: {
    id: 105,
    name: 'Carla Dias',
    number: '5511988887777',
    profilePicUrl: '',
    isGroup: false,
  },
});

function serve(user = agent, extra?: (call: Call) => Response | undefined) {
  let accepted: Ticket | null = null;
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/queue')
      return json(200, [queueRecord(3, 'Suporte', '#1976d2'), queueRecord(4, 'Vendas', '#2e7d32')]);
    if (pathname === '/tags/list') return json(200, []);
    if (pathname === '/quick-messages/list') return json(200, []);
    if (pathname === '/tickets' && call.method === 'GET') {
      const status = searchParams.get('status');
      if (status === 'open') {
        const list = accepted ? [accepted, ...mine] : mine;
        return json(200, { tickets: list, count: list.length, countExact: true, hasMore: false });
      }
      if (status === 'pending') {
        const list = accepted ? [] : [waiting];
        return json(200, { tickets: list, count: list.length, countExact: true, hasMore: false });
      }
      return json(200, { tickets: [], count: 0, countExact: true, hasMore: false });
    }
    if (pathname === '/tickets/5' && call.method === 'PUT') {
      accepted = {
        ...waiting,
        status: 'open',
        userId: user.id,
        user: { id: user.id, name: user.name },
      };
      return json(200, accepted);
    }
    if (pathname.startsWith('/tickets/u/')) {
      const uuid = pathname.slice('/tickets/u/'.length);
      const found = [...mine, accepted ?? waiting].find((ticket) => ticket.uuid === uuid);
      return found ? json(200, found) : json(404, { error: 'ERR_NO_TICKET_FOUND' });
    }
    if (pathname.startsWith('/messages/')) {
      const id = Number(pathname.slice('/messages/'.length));
      const ticket = [...mine, accepted ?? waiting].find((item) => item.id === id) ?? ticketRow(id);
      return json(200, { messages: [], hasMore: false, count: 0, ticket });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/tickets') {
  const socket = fakeSocket();
  // the alerts read the address bar, as the browser router keeps it
  window.history.replaceState(null, '', route);
  return {
    socket,
    ...renderWithApp(
      <SocketContext.Provider value={socket.socket}>
        <RequireSession>
          <Routes>
            <Route path="/tickets/:uuid?" element={<TicketsPage />} />
          </Routes>
          <Alerts />
        </RequireSession>
      </SocketContext.Provider>,
      { route },
    ),
  };
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TicketsPage', () => {
  it('shows the open tab with count badges for assigned and waiting tickets', async () => {
    const calls = serve();
    renderPage();
    expect(await screen.findByRole('tab', { name: 'Atendendo 2' }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Aguardando 1' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Atendendo' });
    expect(within(list).getByText('Contato 1')).toBeTruthy();
    expect(within(list).getByText('Oi, tudo bem?')).toBeTruthy();
    expect(within(list).getByLabelText('3 mensagens não lidas')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Abertas/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Resolvidos/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Busca/ })).toBeTruthy();
    // a user without show-all sees the working lists of its own queues
    const asked = calls.filter((call) => call.url.pathname === '/tickets');
    expect(asked.every((call) => call.url.searchParams.get('showAll') === 'false')).toBe(true);
    expect(asked[0]?.url.searchParams.get('queueIds')).toBe('[3]');
    // no show-all switch for agents
    expect(screen.queryByRole('switch', { name: 'Todos' })).toBeNull();
  });

  it('accepts a pending ticket with its button instead of opening it by a click', async () => {
    const calls = serve();
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'Aguardando 1' }));
    const list = await screen.findByRole('list', { name: 'Aguardando' });
    fireEvent.click(within(list).getByText('Carla Dias'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((call) => call.url.pathname.startsWith('/tickets/u/'))).toBe(false);

    fireEvent.click(
      within(list).getByRole('button', { name: 'Aceitar o atendimento de Carla Dias' }),
    );
    expect(
      await screen.findByRole('region', { name: 'Conversa com Carla Dias' }, { timeout: 3000 }),
    ).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.url.pathname).toBe('/tickets/5');
    expect(put?.body).toEqual({ status: 'open', userId: 2, queueId: 3 });
    expect(screen.getByRole('button', { name: 'Resolver' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Devolver' })).toBeTruthy();
    expect(screen.getByText('Atribuído a: Ana Souza · Suporte · Simulador')).toBeTruthy();
  });

  it('starts admins with show-all on, and offers the switch', async () => {
    const calls = serve(admin);
    renderPage();
    const toggle = await screen.findByRole('switch', { name: 'Todos' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await waitFor(() =>
      expect(calls.some((call) => call.url.searchParams.get('showAll') === 'true')).toBe(true),
    );
  });

  it("offers 'Agendar' in the conversation when the plan has schedules, for its contact", async () => {
    const scheduling = sessionUser({
      queues: [{ id: 3, name: 'Suporte', color: '#1976d2' }],
      company: { plan: { useSchedules: true } as never },
    });
    serve(scheduling);
    renderPage(`/tickets/${mine[0]!.uuid}`);
    const action = await screen.findByRole('link', { name: 'Agendar' }, { timeout: 5000 });
    expect(action.getAttribute('href')).toBe(`/schedules?contactId=${mine[0]!.contactId}`);
  });

  it("has no 'Agendar' when the plan has no schedules", async () => {
    serve(agent);
    renderPage(`/tickets/${mine[0]!.uuid}`);
    expect(
      await screen.findByRole('button', { name: 'Mais ações' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Agendar' })).toBeNull();
  });

  it('says access is not allowed and goes back to the list for a forbidden ticket', async () => {
    serve(agent, (call) =>
      call.url.pathname.startsWith('/tickets/u/')
        ? json(403, { error: 'ERR_NO_PERMISSION' })
        : undefined,
    );
    // the API client refreshes once on a 403 before giving up
    const refresh = vi.fn();
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/auth/refresh_token')) {
        refresh();
        return Promise.resolve(json(200, { token: 'fresh' }));
      }
      return original(input, init);
    });
    renderPage(`/tickets/${ticketRow(9).uuid}`);
    expect(await screen.findByText('Acesso não permitido')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Atendendo 2' })).toBeTruthy();
    expect(refresh).toHaveBeenCalled();
  });

  it('moves a ticket with a new message to the top of the list', async () => {
    serve();
    const { socket } = renderPage();
    const list = await screen.findByRole('list', { name: 'Atendendo' });
    await within(list).findByText('Contato 2');
    const names = () =>
      within(list)
        .getAllByTestId('ticket-item')
        .map((item) => within(item).getAllByText(/^Contato \d$/)[0]?.textContent);
    expect(names()).toEqual(['Contato 1', 'Contato 2']);
    socket.serverEmit('company-1-appMessage', {
      action: 'create',
      message: { id: 90, ticketId: 2, body: 'Novidade', fromMe: false },
      ticket: { ...mine[1]!, lastMessage: 'Novidade', unreadMessages: 4 },
      contact: mine[1]!.contact,
    });
    await waitFor(() => expect(names()).toEqual(['Contato 2', 'Contato 1']));
    expect(within(list).getByText('Novidade')).toBeTruthy();
  });

  it("shows a contact's new profile picture on its ticket as soon as it is stored", async () => {
    serve();
    const { socket } = renderPage();
    const list = await screen.findByRole('list', { name: 'Atendendo' });
    const row = (await within(list).findByText('Contato 2')).closest(
      '[data-testid="ticket-item"]',
    ) as HTMLElement;
    expect(row.querySelector('img')).toBeNull();
    const picture = '/media/1/0f8fad5b-d9cb-469f-a165-70867728950e.png?expires=1&signature=s';
    socket.serverEmit('company-1-contact', {
      action: 'update',
      contact: { id: 102, name: 'Contato 2', number: '5511900000002', profilePicUrl: picture },
    });
    await waitFor(() =>
      expect(row.querySelector('img')?.getAttribute('src')).toBe(`${apiBaseUrl()}${picture}`),
    );
  });

  it('chimes at the kept volume for a message in another ticket, not for the open one (alerts.ts)', async () => {
    const peaks: number[] = [];
    class FakeAudio {
      currentTime = 0;
      destination = {};
      createGain() {
        return {
          gain: {
            setValueAtTime() {},
            exponentialRampToValueAtTime(value: number) {
              peaks.push(value);
            },
          },
          connect() {},
        };
      }
      createOscillator() {
        return { type: '', frequency: { value: 0 }, connect() {}, start() {}, stop() {} };
      }
    }
    vi.stubGlobal('AudioContext', FakeAudio);
    localStorage.setItem('volume', '0.5');
    serve();
    const { socket } = renderPage(`/tickets/${mine[0]!.uuid}`);
    await screen.findByRole('region', { name: 'Conversa com Contato 1' });
    const incoming = (ticket: (typeof mine)[number], id: number) =>
      socket.serverEmit('company-1-appMessage', {
        action: 'create',
        message: { id, ticketId: ticket.id, body: 'Oi', fromMe: false },
        ticket: { ...ticket, unreadMessages: 1 },
        contact: ticket.contact,
      });
    incoming(mine[0]!, 91);
    expect(peaks).toEqual([]);
    incoming(mine[1]!, 92);
    expect(Math.max(...peaks)).toBeCloseTo(0.15);
  });

  it('notifies a contact card by its name, a missed call as one and a file by its label (alerts.ts)', async () => {
    const shown: { title: string; body: string }[] = [];
    class RecordedNotification {
      static permission = 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body: string }) {
        shown.push({ title, body: options.body });
      }
      close() {}
    }
    vi.stubGlobal('Notification', RecordedNotification);
    serve();
    const { socket } = renderPage();
    await screen.findByRole('list', { name: 'Atendendo' });
    const incoming = (id: number, message: Record<string, unknown>) =>
      socket.serverEmit('company-1-appMessage', {
        action: 'create',
        message: { id, ticketId: mine[1]!.id, fromMe: false, mediaType: 'chat', ...message },
        ticket: { ...mine[1]!, unreadMessages: 1 },
        contact: mine[1]!.contact,
      });
    incoming(81, {
      mediaType: 'vcard',
      body: 'BEGIN:VCARD\nVERSION:3.0\nFN:Joana Lima\nTEL;waid=5511912345678:+5511912345678\nEND:VCARD',
    });
    incoming(82, { mediaType: 'call_log', body: 'Chamada de voz/vídeo perdida às 10:30' });
    incoming(83, { mediaType: 'image', body: '' });
    incoming(84, { mediaType: 'audio', body: '' });
    incoming(85, { mediaType: 'locationMessage', body: 'https://maps.google.com/maps?q=1%2C2' });
    incoming(86, { body: 'Oi, tudo bem?' });
    await waitFor(() => expect(shown).toHaveLength(6));
    expect(shown.map((notification) => notification.body)).toEqual([
      '👤 Joana Lima',
      '📞 Chamada perdida',
      '📷 Imagem',
      '🎤 Áudio',
      '📍 Localização',
      'Oi, tudo bem?',
    ]);
    expect(shown[0]!.title).toBe(`Mensagem de ${mine[1]!.contact.name}`);
  });
});
