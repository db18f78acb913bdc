import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { contactRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { messageRow, ticketRow } from '../tickets.fixtures';
import { Conversation } from './Conversation';

const contact = contactRecord(40, 'Bruno Lima', '5511977776666');

const messages = [
  messageRow(11, { body: 'Primeira', fromMe: false }),
  messageRow(12, { body: 'Segunda', fromMe: true }),
  messageRow(13, { body: 'Terceira', fromMe: false }),
  messageRow(14, { body: 'Veio de outra conversa', fromMe: true, isForwarded: true }),
];

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function setup(onForward: (call: Call) => Response) {
  const calls = stubFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, sessionUser());
    if (pathname === '/messages/1') {
      return json(200, { messages, hasMore: false, count: 4, ticket: ticketRow(1) });
    }
    if (pathname === '/contacts') {
      return json(200, { contacts: [contact], count: 1, countExact: true, hasMore: false });
    }
    if (pathname === '/tickets') {
      return json(200, {
        tickets: [
          ticketRow(1),
          ticketRow(9, { contact: { ...ticketRow(9).contact!, name: 'Carla' } }),
        ],
        count: 2,
        countExact: true,
        hasMore: false,
      });
    }
    if (pathname === '/message/forward' && call.method === 'POST') return onForward(call);
    return json(404, {});
  });
  renderWithApp(
    <RequireSession>
      <Routes>
        <Route
          path="/tickets/:uuid?"
          element={
            <>
              <Conversation ticket={ticketRow(1)} onLeave={() => {}} />
              <Where />
            </>
          }
        />
      </Routes>
    </RequireSession>,
    { route: `/tickets/${ticketRow(1).uuid}` },
  );
  return calls;
}

const forwarded = (body: string, ticketId: number) =>
  messageRow(50, { body, ticketId, fromMe: true, isForwarded: true });

/** Opens a message's menu and starts choosing, then chooses `more` of the others too. */
async function choose(first: string, ...more: string[]) {
  const list = await screen.findByRole('list', { name: 'Mensagens' });
  const bubble = (await within(list).findByText(first)).closest('[data-testid="message"]')!;
  fireEvent.click(
    within(bubble as HTMLElement).getByRole('button', { name: 'Opções da mensagem' }),
  );
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Encaminhar' }));
  for (const text of more) {
    fireEvent.click(screen.getByRole('checkbox', { name: `Selecionar: ${text}` }));
  }
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Forwarding from a conversation', () => {
  it('chooses messages with checkboxes and forwards them to a contact, then opens its ticket', {
    timeout: 30_000,
  }, async () => {
    const calls = setup(() =>
      json(200, {
        ticket: ticketRow(7),
        messages: [forwarded('Primeira', 7), forwarded('Terceira', 7)],
      }),
    );
    await choose('Terceira', 'Primeira');
    const toolbar = screen.getByRole('toolbar', { name: 'Encaminhar mensagens' });
    expect(within(toolbar).getByRole('status').textContent).toBe('2 mensagens selecionadas');
    // The message input steps aside while messages are chosen.
    expect(screen.queryByRole('textbox', { name: 'Mensagem' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Selecionar: Segunda' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Selecionar: Segunda' }));
    fireEvent.click(within(toolbar).getByRole('button', { name: 'Encaminhar' }));

    const dialog = await screen.findByRole('dialog', { name: 'Encaminhar 2 mensagens' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encaminhar' }));
    expect(await within(dialog).findByText('Escolha para quem encaminhar')).toBeTruthy();
    expect(calls.some((call) => call.url.pathname === '/message/forward')).toBe(false);

    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Contato' }), {
      target: { value: 'Bru' },
    });
    fireEvent.click(await screen.findByRole('option', { name: /Bruno Lima/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encaminhar' }));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(`/tickets/${ticketRow(7).uuid}`),
    );
    const post = calls.find((call) => call.url.pathname === '/message/forward');
    expect(post?.body).toEqual({ messageIds: [13, 11], contactId: 40 });
    expect(await screen.findByText('2 mensagens encaminhadas')).toBeTruthy();
    expect(screen.queryByRole('toolbar', { name: 'Encaminhar mensagens' })).toBeNull();
  });

  it('forwards into an open ticket, never offering the one being read', {
    timeout: 30_000,
  }, async () => {
    const calls = setup(() =>
      json(200, { ticket: ticketRow(9), messages: [forwarded('Segunda', 9)] }),
    );
    await choose('Segunda');
    fireEvent.click(
      within(screen.getByRole('toolbar', { name: 'Encaminhar mensagens' })).getByRole('button', {
        name: 'Encaminhar',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Encaminhar 1 mensagem' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Um atendimento aberto' }));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Atendimento' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Carla - 551199990009']);
    fireEvent.click(options[0]!);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encaminhar' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/message/forward')?.body).toEqual({
        messageIds: [12],
        ticketId: 9,
      }),
    );
  });

  it('marks a forwarded message and cancels a choice', { timeout: 30_000 }, async () => {
    const calls = setup(() => json(500, {}));
    const list = await screen.findByRole('list', { name: 'Mensagens' });
    const copy = (await within(list).findByText('Veio de outra conversa')).closest(
      '[data-testid="message"]',
    ) as HTMLElement;
    expect(within(copy).getByText('Encaminhada')).toBeTruthy();
    expect(within(list).getAllByText('Encaminhada')).toHaveLength(1);
    await choose('Primeira');
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('textbox', { name: 'Mensagem' })).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(calls.some((call) => call.url.pathname === '/message/forward')).toBe(false);
  });
});
