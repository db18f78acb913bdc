import type { Chat, ChatMessage } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { fakeMedia } from '../../../test/layout';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { ChatsPopover } from '../components/ChatsPopover';
import { ChatsPage } from './ChatsPage';

const ME = 2;
const BRUNO = 3;

function chatRecord(id: number, overrides: Partial<Chat> = {}, unreads = 0): Chat {
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    title: `Conversa ${id}`,
    ownerId: ME,
    lastMessage: '',
    createdAt: '2030-01-01T10:00:00.000Z',
    updatedAt: `2030-01-01T10:0${id}:00.000Z`,
    users: [
      { userId: ME, unreads, user: { id: ME, name: 'Ana Souza' } },
      { userId: BRUNO, unreads: 0, user: { id: BRUNO, name: 'Bruno' } },
    ],
    ...overrides,
  };
}

const message = (id: number, chatId: number, senderId: number, text: string): ChatMessage => ({
  id,
  chatId,
  senderId,
  sender: { id: senderId, name: senderId === ME ? 'Ana Souza' : 'Bruno' },
  message: text,
  mediaPath: null,
  mediaName: null,
  createdAt: '2030-01-01T10:00:00.000Z',
});

function serve(chats: Chat[], extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') {
      return json(
        200,
        sessionUser({ id: ME, company: { plan: { useInternalChat: true } as never } }),
      );
    }
    if (pathname === '/chats' && call.method === 'GET') {
      return json(200, { records: chats, count: chats.length, hasMore: false });
    }
    const messages = /^\/chats\/(\d+)\/messages$/.exec(pathname);
    if (messages && call.method === 'GET') {
      return json(200, { records: [], count: 0, hasMore: false });
    }
    const read = /^\/chats\/(\d+)\/read$/.exec(pathname);
    if (read) {
      const chat = chats.find((c) => c.id === Number(read[1]))!;
      return json(200, {
        ...chat,
        users: chat.users.map((u) => (u.userId === ME ? { ...u, unreads: 0 } : u)),
      });
    }
    if (pathname === '/users/list') {
      return json(200, [
        { id: ME, name: 'Ana Souza' },
        { id: BRUNO, name: 'Bruno' },
      ]);
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/chats', socket = fakeSocket()) {
  return {
    socket,
    ...renderWithApp(
      <SocketContext.Provider value={socket.socket}>
        <RequireSession>
          <ChatsPopover />
          <Routes>
            <Route path="/chats/:uuid?" element={<ChatsPage />} />
          </Routes>
        </RequireSession>
      </SocketContext.Provider>,
      { route },
    ),
  };
}

beforeAll(async () => {
  await i18n.loadNamespaces(['chats']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ChatsPage', () => {
  it("shows unread badges, and edit and delete only on the owner's chats", async () => {
    serve([
      chatRecord(1, { title: 'Minha conversa' }),
      chatRecord(2, { title: 'Conversa do Bruno', ownerId: BRUNO }, 3),
    ]);
    renderPage();
    await screen.findByText('Minha conversa', undefined, { timeout: 5000 });
    const list = screen.getByRole('list', { name: 'Conversas' });
    expect(within(list).getByText('Minha conversa')).toBeTruthy();
    expect(within(list).getByLabelText('3 mensagens não lidas')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Editar Minha conversa' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Excluir Minha conversa' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Conversa do Bruno' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Excluir Conversa do Bruno' })).toBeNull();
    // the top bar's count: the unread messages of every chat
    expect(
      screen.getByRole('button', { name: 'Chat interno: 3 mensagens não lidas' }),
    ).toBeTruthy();
  });

  it('offers a message’s file to download under its name', async () => {
    const signed = '/media/1/6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e.pdf?expires=1&signature=x';
    serve([chatRecord(1, { title: 'Equipe' })], (call) =>
      call.url.pathname === '/chats/1/messages'
        ? json(200, {
            records: [
              {
                ...message(7, 1, BRUNO, 'Segue a escala'),
                mediaPath: signed,
                mediaName: 'Escala.pdf',
              },
              message(8, 1, ME, 'Obrigada'),
            ],
            count: 2,
            hasMore: false,
          })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByText('Equipe'));
    const link = await screen.findByRole('link', { name: 'Escala.pdf' });
    const href = new URL(link.getAttribute('href')!, 'http://app.example');
    expect(href.pathname).toBe('/media/1/6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e.pdf');
    expect(href.searchParams.get('signature')).toBe('x');
    expect(href.searchParams.get('download')).toBe('Escala.pdf');
    // a message without a file offers none
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('clears the unread count when a chat with unreads is opened', async () => {
    const calls = serve([chatRecord(2, { title: 'Conversa do Bruno', ownerId: BRUNO }, 3)]);
    renderPage();
    fireEvent.click(await screen.findByText('Conversa do Bruno'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/chats/2/read')).toBe(
        true,
      ),
    );
    const read = calls.find((c) => c.url.pathname === '/chats/2/read')!;
    expect(read.body).toEqual({ userId: ME });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Chat interno' })).toBeTruthy());
  });

  it('sends with Enter, and never a blank message', async () => {
    const sent: unknown[] = [];
    serve([chatRecord(1)], (call) => {
      if (call.method === 'POST' && call.url.pathname === '/chats/1/messages') {
        sent.push(call.body);
        return json(201, message(10, 1, ME, (call.body as { message: string }).message));
      }
      return undefined;
    });
    renderPage(`/chats/${chatRecord(1).uuid}`);
    const input = await screen.findByRole('textbox', { name: 'Mensagem' });
    fireEvent.change(input, { target: { value: '    ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(sent).toEqual([]);
    fireEvent.change(input, { target: { value: 'Bom dia!' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(sent).toEqual([{ message: 'Bom dia!' }]));
    expect(await screen.findByText('Bom dia!')).toBeTruthy();
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it("refuses the dialog without a title or users, in the spec's words", async () => {
    const created: unknown[] = [];
    serve([], (call) => {
      if (call.method === 'POST' && call.url.pathname === '/chats') {
        created.push(call.body);
        return json(201, chatRecord(5, { title: 'Plantão' }));
      }
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Nova' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(
      await within(dialog).findByText('Por favor, preencha o título da conversa.'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Por favor, selecione pelo menos um usuário.')).toBeTruthy();
    expect(created).toEqual([]);

    // a title alone is still refused: at least one user (picking one is in the journey)
    fireEvent.change(within(dialog).getByLabelText(/Título/), { target: { value: 'Plantão' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() =>
      expect(within(dialog).queryByText('Por favor, preencha o título da conversa.')).toBeNull(),
    );
    expect(within(dialog).getByText('Por favor, selecione pelo menos um usuário.')).toBeTruthy();
    expect(created).toEqual([]);
  });

  it('follows company-{id}-chat: new messages count, a deleted chat leaves the list', async () => {
    const chat = chatRecord(1, { title: 'Ao vivo' });
    serve([chat, chatRecord(2, { title: 'Outra' })]);
    const { socket } = renderPage();
    await screen.findByText('Ao vivo');
    socket.serverEmit('company-1-chat', {
      action: 'new-message',
      newMessage: message(11, 1, BRUNO, 'Chegou?'),
      chat: {
        ...chat,
        lastMessage: 'Chegou?',
        updatedAt: '2030-01-02T10:00:00.000Z',
        users: chat.users.map((u) => (u.userId === ME ? { ...u, unreads: 1 } : u)),
      },
    });
    expect(await screen.findByText('Chegou?')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Chat interno: 1 mensagem não lida' })).toBeTruthy();
    socket.serverEmit('company-1-chat', { action: 'delete', id: 2 });
    await waitFor(() => expect(screen.queryByText('Outra')).toBeNull());
  });

  it('shows two tabs, Chats and Mensagens, on narrow screens', async () => {
    // a phone: every max-width query matches
    fakeMedia((query) => query.includes('max-width'));
    try {
      serve([chatRecord(1, { title: 'No celular' })]);
      renderPage();
      const chatsTab = await screen.findByRole('tab', { name: 'Chats' });
      expect(chatsTab.getAttribute('aria-selected')).toBe('true');
      fireEvent.click(await screen.findByText('No celular'));
      const messagesTab = await screen.findByRole('tab', { name: 'Mensagens' });
      await waitFor(() => expect(messagesTab.getAttribute('aria-selected')).toBe('true'));
      expect(await screen.findByRole('textbox', { name: 'Mensagem' })).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
