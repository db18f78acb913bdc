import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { ticketRow } from '../tickets.fixtures';
import { TicketListItem } from './TicketListItem';

const handlers = () => ({ onOpen: vi.fn(), onAccept: vi.fn(), onSpy: vi.fn() });

const ticket = (status: 'open' | 'pending') =>
  ticketRow(7, {
    status,
    lastMessage: 'Preciso de ajuda',
    unreadMessages: 1200,
    tags: [{ id: 9, name: 'VIP', color: '#9c27b0' }],
  });

/** What a row says, whatever it lets a person do with it. */
const bodyOf = (item: HTMLElement) => ({
  name: within(item).getByText('Contato 7').textContent,
  message: within(item).getByText('Preciso de ajuda').textContent,
  unread: within(item).getByRole('img', { name: /1200/ }).textContent,
  queue: within(item).getByText('Suporte').textContent,
  tag: within(item).getByText('VIP').textContent,
});

describe('TicketListItem', () => {
  it('says the same of a waiting ticket and of an open one; only the open one opens', () => {
    const open = handlers();
    const { unmount } = renderWithApp(
      <TicketListItem
        ticket={ticket('open')}
        selected={false}
        canSpy={false}
        accepting={false}
        {...open}
      />,
    );
    const openItem = screen.getByTestId('ticket-item');
    const openBody = bodyOf(openItem);
    expect(openBody).toEqual({
      name: 'Contato 7',
      message: 'Preciso de ajuda',
      unread: '999+',
      queue: 'Suporte',
      tag: 'VIP',
    });
    // the agent is named on a ticket someone took
    expect(within(openItem).getByText('Ana Souza')).toBeTruthy();
    fireEvent.click(within(openItem).getByText('Preciso de ajuda'));
    expect(open.onOpen).toHaveBeenCalledTimes(1);
    expect(within(openItem).queryByRole('button', { name: /Aceitar/ })).toBeNull();
    unmount();

    const pending = handlers();
    renderWithApp(
      <TicketListItem
        ticket={ticket('pending')}
        selected={false}
        canSpy={false}
        accepting={false}
        {...pending}
      />,
    );
    const pendingItem = screen.getByTestId('ticket-item');
    expect(bodyOf(pendingItem)).toEqual(openBody);
    expect(within(pendingItem).queryByText('Ana Souza')).toBeNull();
    fireEvent.click(within(pendingItem).getByText('Preciso de ajuda'));
    expect(pending.onOpen).not.toHaveBeenCalled();
    fireEvent.click(within(pendingItem).getByRole('button', { name: /Contato 7/ }));
    expect(pending.onAccept).toHaveBeenCalledTimes(1);
  });
});
