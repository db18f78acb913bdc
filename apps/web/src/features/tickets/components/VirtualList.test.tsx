import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { MessagesList } from '../../messages/components/MessagesList';
import { messageRow, ticketRow } from '../tickets.fixtures';
import { TicketsList } from './TicketsList';

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const noop = () => {};

describe('virtualised lists', () => {
  it('keeps only the visible tickets of 10,000 in the page', async () => {
    stubFetch((call) =>
      call.url.pathname === '/auth/me' ? json(200, sessionUser()) : json(404, {}),
    );
    const tickets = Array.from({ length: 10_000 }, (_item, index) => ticketRow(index + 1));
    renderWithApp(
      <RequireSession>
        <div style={{ height: 600, display: 'flex' }}>
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
        </div>
      </RequireSession>,
    );
    const list = await screen.findByRole('list', { name: 'Atendendo' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(60);
    expect(within(list).getByText('Contato 1')).toBeTruthy();
    expect(within(list).queryByText('Contato 10000')).toBeNull();
    // the spacer stands for the rows left out, so the scrollbar still spans all of them
    expect(Number.parseInt(list.style.paddingBottom, 10)).toBeGreaterThan(9_000 * 90);
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
        <div style={{ height: 600, display: 'flex' }}>
          <MessagesList ticket={ticketRow(1)} />
        </div>
      </RequireSession>,
    );
    const list = await screen.findByRole('list', { name: 'Mensagens' });
    await within(list).findByText('Texto 5000', {}, { timeout: 3000 });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeLessThan(60);
    expect(within(list).queryByText('Texto 1')).toBeNull();
  });
});
