import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessagesList } from '../../features/messages/components/MessagesList';
import { TicketsList } from '../../features/tickets/components/TicketsList';
import { messageRow, ticketRow } from '../../features/tickets/tickets.fixtures';
import { json, stubFetch } from '../../test/fetch';
import { fakeLayout, scrollReaderTo } from '../../test/layout';
import { renderWithApp, sessionUser } from '../../test/render';
import { RequireSession } from '../guards';

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
  fakeLayout({ viewport: 600, row: 64 });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const noop = () => {};

/** Ticket 1's conversation of `total` messages (ids 1..total), served 20 a page, newest first. */
function serveConversation(total: number) {
  return stubFetch((call) => {
    if (call.url.pathname === '/auth/me') return json(200, sessionUser());
    if (call.url.pathname === '/messages/1') {
      const page = Number(call.url.searchParams.get('pageNumber') ?? 1);
      const last = total - (page - 1) * 20;
      const first = Math.max(1, last - 19);
      const messages = [];
      for (let id = first; id <= last; id += 1) messages.push(messageRow(id));
      return json(200, { messages, hasMore: first > 1, count: total, ticket: ticketRow(1) });
    }
    return json(404, {});
  });
}

describe('virtualised lists', () => {
  it('keeps only the visible tickets of 10,000 in the page', async () => {
    stubFetch((call) =>
      call.url.pathname === '/auth/me' ? json(200, sessionUser()) : json(404, {}),
    );
    const tickets = Array.from({ length: 10_000 }, (_item, index) => ticketRow(index + 1));
    renderWithApp(
      <RequireSession>
        <TicketsList
          query={{
            data: { pages: [{ tickets, count: 10_000, hasMore: false }], pageParams: [1] },
            isLoading: false,
            isError: false,
            hasNextPage: false,
            isFetchingNextPage: false,
            fetchNextPage: noop,
          }}
          label="Atendendo"
          canSpy={false}
          onOpen={noop}
          onAccept={noop}
          onSpy={noop}
        />
      </RequireSession>,
    );
    const list = await screen.findByRole('list', { name: 'Atendendo' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(40);
    expect(within(list).getByText('Contato 1')).toBeTruthy();
    expect(within(list).queryByText('Contato 10000')).toBeNull();
    // the spacer stands for the rows left out, so the scrollbar still spans all of them
    expect(Number.parseInt(list.style.paddingBottom, 10)).toBeGreaterThan(9_900 * 64);

    // far down, the first ticket leaves the page and the ones in view come in
    scrollReaderTo(screen.getByTestId('tickets-scroller'), 5_000 * 64);
    await waitFor(() => expect(within(list).queryByText('Contato 1')).toBeNull());
    const first = within(list).getAllByRole('listitem')[0]!.textContent ?? '';
    expect(Number(/Contato (\d+)/.exec(first)?.[1])).toBeGreaterThan(3_000);
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
  });

  it('keeps only the visible messages of 5,000 in the page, newest at the bottom', async () => {
    const messages = Array.from({ length: 5_000 }, (_item, index) => messageRow(index + 1));
    stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, sessionUser());
      if (call.url.pathname === '/messages/1') {
        return json(200, { messages, hasMore: false, count: 5_000, ticket: ticketRow(1) });
      }
      return json(404, {});
    });
    renderWithApp(
      <RequireSession>
        <MessagesList ticket={ticketRow(1)} />
      </RequireSession>,
    );
    const list = await screen.findByRole('list', { name: 'Mensagens' });
    await within(list).findByText('Texto 5000', {}, { timeout: 3000 });
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(40);
    expect(within(list).queryByText('Texto 1')).toBeNull();
  });

  it('keeps the reader at the message in view when an older page arrives, one page per scroll to the top', async () => {
    const calls = serveConversation(200);
    renderWithApp(
      <RequireSession>
        <MessagesList ticket={ticketRow(1)} />
      </RequireSession>,
    );
    const list = await screen.findByRole('list', { name: 'Mensagens' });
    await within(list).findByText('Texto 200');
    const pages = () =>
      calls
        .filter((call) => call.url.pathname === '/messages/1')
        .map((call) => call.url.searchParams.get('pageNumber'));
    const scroller = screen.getByTestId('messages-scroller');
    // the newest page is shown from its end; nothing more is asked while the reader stays
    await waitFor(() => expect(scroller.scrollTop).toBeGreaterThan(0));
    expect(pages()).toEqual(['1']);

    // the reader reaches the top, where the oldest message (181) carries the day mark
    scrollReaderTo(scroller, 0);
    await waitFor(() => expect(pages()).toEqual(['1', '2']));
    // the older page came in above (20 rows of 64 px) and 181 is still where the reader saw it
    await waitFor(() => expect(scroller.scrollTop).toBe(20 * 64));
    expect(within(list).getAllByRole('listitem')[0]!.textContent).not.toContain('Texto 161');
    expect(within(list).getByText('Texto 181')).toBeTruthy();
    // the day mark went up with the oldest message, out of view; nothing more is asked
    expect(within(list).queryByText('10/01/2026')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pages()).toEqual(['1', '2']);

    // another scroll to the top, another page, and only one
    scrollReaderTo(scroller, 0);
    await waitFor(() => expect(pages()).toEqual(['1', '2', '3']));
    await waitFor(() => expect(scroller.scrollTop).toBe(20 * 64));
    expect(within(list).getByText('Texto 161')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pages()).toEqual(['1', '2', '3']);
  });
});
