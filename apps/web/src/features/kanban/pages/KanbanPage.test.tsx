import type { Ticket } from '@atendi/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { KanbanPage } from './KanbanPage';

const DOING = { id: 7, name: 'Fazendo', color: '#ff9800' };
const ticket = (id: number, name: string, tags: Ticket['tags'] = []): Ticket => ({
  id,
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  status: 'open',
  lastMessage: `Última de ${name}`,
  unreadMessages: 0,
  isGroup: false,
  chatbot: false,
  useIntegration: false,
  integrationId: null,
  promptId: null,
  contactId: id,
  contact: { id, name, number: `55119000000${id}`, profilePicUrl: '', isGroup: false },
  userId: null,
  user: null,
  queueId: null,
  queue: null,
  whatsappId: null,
  whatsapp: null,
  tags,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
});

const me = sessionUser({ id: 1, queues: [{ id: 3, name: 'Suporte', color: '#000000' }] });

function serve() {
  return stubFetch(({ url }) => {
    if (url.pathname === '/auth/me') return json(200, me);
    if (url.pathname === '/tags/kanban') {
      return json(200, {
        lista: [{ ...DOING, kanban: 1, createdAt: '2030-01-01', updatedAt: '2030-01-01' }],
      });
    }
    if (url.pathname === '/ticket/kanban') {
      return url.searchParams.get('tagId') === '0'
        ? json(200, { tickets: [ticket(1, 'Maria <b>Souza</b>')], hasMore: false })
        : json(200, { tickets: [ticket(2, 'João', [DOING])], hasMore: false });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

beforeAll(async () => {
  await i18n.loadNamespaces(['kanban']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
  // the test DOM lays nothing out: the lanes' virtual lists get a size to fill.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(300);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('KanbanPage', () => {
  it("shows 'Em aberto' and a lane per kanban tag, each asked for the user's queues", async () => {
    const calls = serve();
    const { socket } = fakeSocket();
    renderWithApp(
      <SocketContext.Provider value={socket}>
        <RequireSession>
          <KanbanPage />
        </RequireSession>
      </SocketContext.Provider>,
      { route: '/kanban' },
    );
    const open = await screen.findByRole('region', { name: 'Em aberto' });
    const doing = await screen.findByRole('region', { name: 'Fazendo' });
    const maria = await within(open).findByRole('article', {
      name: 'Ticket 1 de Maria <b>Souza</b>',
    });
    expect(within(maria).getByText('551190000001')).toBeTruthy();
    expect(within(maria).getByText('Última de Maria <b>Souza</b>')).toBeTruthy();
    expect(within(maria).getByRole('button', { name: 'Ver ticket 1' })).toBeTruthy();
    expect(await within(doing).findByRole('article', { name: 'Ticket 2 de João' })).toBeTruthy();
    const lanes = calls.filter((call) => call.url.pathname === '/ticket/kanban');
    expect(lanes.map((call) => call.url.searchParams.get('tagId')).sort()).toEqual(['0', '7']);
    expect(lanes.every((call) => call.url.searchParams.get('queueIds') === '[3]')).toBe(true);
  });

  it('moves a card when another agent moves the ticket (company-{id}-ticket)', async () => {
    serve();
    const { socket, serverEmit } = fakeSocket();
    renderWithApp(
      <SocketContext.Provider value={socket}>
        <RequireSession>
          <KanbanPage />
        </RequireSession>
      </SocketContext.Provider>,
      { route: '/kanban' },
    );
    const open = await screen.findByRole('region', { name: 'Em aberto' });
    const doing = await screen.findByRole('region', { name: 'Fazendo' });
    await within(open).findByRole('article', { name: /Ticket 1/ });
    await within(doing).findByRole('article', { name: /Ticket 2/ });
    serverEmit(`company-${me.companyId}-ticket`, {
      action: 'update',
      ticket: ticket(1, 'Maria <b>Souza</b>', [DOING]),
    });
    expect(await within(doing).findByRole('article', { name: /Ticket 1/ })).toBeTruthy();
    expect(within(open).queryByRole('article', { name: /Ticket 1/ })).toBeNull();
    serverEmit(`company-${me.companyId}-ticket`, { action: 'delete', ticketId: 2 });
    await waitFor(() =>
      expect(within(doing).queryByRole('article', { name: /Ticket 2/ })).toBeNull(),
    );
  });
});
