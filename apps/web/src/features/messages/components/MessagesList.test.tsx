import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { messageRow, ticketRow } from '../../tickets/tickets.fixtures';
import { Ticks } from './MessageBubble';
import { buildRows, MessagesList } from './MessagesList';

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The list of ticket 1's messages, once it is on screen. */
async function renderList() {
  renderWithApp(
    <RequireSession>
      <MessagesList ticket={ticketRow(1)} />
    </RequireSession>,
  );
  return screen.findByRole('list', { name: 'Mensagens' });
}

describe('MessagesList', () => {
  it('loads the older page near the top and shows replies, ticks and media', async () => {
    const newest = [
      messageRow(21, {
        fromMe: true,
        ack: 4,
        body: 'Respondendo',
        quotedMsgId: 20,
        quotedMsg: { id: 20, body: 'Pergunta *original*', fromMe: false, mediaType: 'chat' },
      }),
      messageRow(22, { fromMe: true, ack: 0, body: 'Falhou' }),
      messageRow(23, {
        fromMe: false,
        mediaType: 'application',
        body: '',
        mediaUrl: '/media/abc?sig=1',
        mediaName: 'boleto.pdf',
      }),
    ];
    const older = [messageRow(1, { body: 'Bem antiga', createdAt: '2025-12-31T12:00:00.000Z' })];
    const calls = stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, sessionUser());
      if (call.url.pathname === '/messages/1') {
        return call.url.searchParams.get('pageNumber') === '2'
          ? json(200, {
              messages: older,
              hasMore: false,
              count: newest.length + older.length,
              ticket: ticketRow(1),
            })
          : json(200, {
              messages: newest,
              hasMore: true,
              count: newest.length + older.length,
              ticket: ticketRow(1),
            });
      }
      return json(404, {});
    });
    const list = await renderList();
    await within(list).findByText('Respondendo');
    fireEvent.scroll(screen.getByTestId('messages-scroller'), { target: { scrollTop: 10 } });
    expect(await within(list).findByText('Bem antiga')).toBeTruthy();
    const pages = calls
      .filter((call) => call.url.pathname === '/messages/1')
      .map((call) => call.url.searchParams.get('pageNumber'));
    expect(pages).toEqual(['1', '2']);

    // oldest first, with a day separator per day
    expect(within(list).getByText('31/12/2025')).toBeTruthy();
    const quoted = within(list).getByTestId('quoted-message');
    expect(quoted.textContent).toContain('Pergunta original');
    expect(quoted.querySelector('b')?.textContent).toBe('original');
    expect(within(list).getByRole('img', { name: 'Lida' })).toBeTruthy();
    expect(within(list).getByRole('img', { name: 'Falha no envio' })).toBeTruthy();
    const download = within(list).getByRole('link', { name: 'Baixar boleto.pdf' });
    expect(download.getAttribute('href')).toBe(
      'http://localhost:8080/media/abc?sig=1&download=boleto.pdf',
    );
  });

  it("draws the spec's ticks: 1 waiting, 2 sent, 3 delivered, 4 and 5 read, 0 a failed send", async () => {
    renderWithApp(
      <div>
        {[1, 2, 3, 4, 5, 0].map((ack) => (
          <Ticks key={ack} ack={ack} />
        ))}
      </div>,
    );
    const names = (await screen.findAllByRole('img')).map((icon) => icon.textContent);
    expect(names).toEqual([
      'Aguardando envio',
      'Enviada',
      'Entregue',
      'Lida',
      'Lida',
      'Falha no envio',
    ]);
  });

  it('marks where the conversation passed from one ticket to another', () => {
    const rows = buildRows(
      [messageRow(1, { ticketId: 4 }), messageRow(2, { ticketId: 5 })],
      'America/Sao_Paulo',
      { status: 'closed' },
    );
    expect(
      rows.flatMap((row) => [
        ...row.before.map((mark) => mark.kind),
        row.key,
        ...row.after.map((mark) => mark.kind),
      ]),
    ).toEqual(['day', 1, 'closed', 'started', 2, 'closed']);
  });

  it("puts a message on the company's day, not the browser's", () => {
    // 01:30 UTC of the 11th is still the 10th in São Paulo (UTC-3)
    const late = messageRow(1, { createdAt: '2026-01-11T01:30:00.000Z' });
    const days = (zone: string) =>
      buildRows([late], zone).flatMap((row) =>
        row.before.flatMap((mark) => (mark.kind === 'day' ? [mark.label] : [])),
      );
    expect(days('America/Sao_Paulo')).toEqual(['10/01/2026']);
    expect(days('Asia/Tokyo')).toEqual(['11/01/2026']);
  });

  it('offers a failed message to be sent again and shows the answer', async () => {
    const calls = stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, sessionUser());
      if (call.url.pathname === '/messages/1') {
        return json(200, {
          messages: [messageRow(5, { fromMe: true, ack: 0, body: 'Falhou' })],
          hasMore: false,
          count: 1,
          ticket: ticketRow(1),
        });
      }
      if (call.url.pathname === '/messages/5/retry') {
        return json(200, messageRow(5, { fromMe: true, ack: 2, body: 'Falhou' }));
      }
      return json(404, {});
    });
    const list = await renderList();
    await within(list).findByText('Falhou');
    expect(within(list).getByTitle('Falha no envio')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Tentar novamente' }));
    expect(await within(list).findByTitle('Enviada')).toBeTruthy();
    expect(
      calls.some((call) => call.method === 'POST' && call.url.pathname === '/messages/5/retry'),
    ).toBe(true);
  });

  it('warns that a send of unknown outcome may have arrived, and leaves the agent to send it again', async () => {
    const calls = stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, sessionUser());
      if (call.url.pathname === '/messages/1') {
        return json(200, {
          messages: [
            messageRow(6, { fromMe: true, ack: 0, sendState: 'unknown', body: 'Chegou?' }),
            messageRow(7, { fromMe: true, ack: 0, sendState: 'failed', body: 'Não saiu' }),
          ],
          hasMore: false,
          count: 2,
          ticket: ticketRow(1),
        });
      }
      if (call.url.pathname === '/messages/6/retry') {
        return json(
          200,
          messageRow(6, { fromMe: true, ack: 2, sendState: 'sent', body: 'Chegou?' }),
        );
      }
      return json(404, {});
    });
    const list = await renderList();
    const unknown = (await within(list).findByText('Chegou?')).closest(
      '[data-testid="message"]',
    ) as HTMLElement;
    expect(within(unknown).getByRole('note').textContent).toBe(
      'Pode ter sido entregue: confira com o contato antes de enviar de novo.',
    );
    const failed = within(list)
      .getByText('Não saiu')
      .closest('[data-testid="message"]') as HTMLElement;
    expect(within(failed).queryByRole('note')).toBeNull();
    // Nothing is sent again until the agent asks.
    expect(calls.some((call) => call.url.pathname.endsWith('/retry'))).toBe(false);
    fireEvent.click(within(unknown).getByRole('button', { name: 'Opções da mensagem' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Tentar novamente' }));
    await waitFor(() => expect(within(unknown).queryByRole('note')).toBeNull());
    expect(calls.filter((call) => call.url.pathname === '/messages/6/retry')).toHaveLength(1);
  });
});
