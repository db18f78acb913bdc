import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { ticketRow } from '../tickets.fixtures';
import { TransferDialog } from './TransferDialog';

const SUPORTE = queueRecord(3, 'Suporte', '#1976d2');
const VENDAS = queueRecord(4, 'Vendas', '#2e7d32');
const member = (id: number, name: string, queues: (typeof SUPORTE)[], profile = 'user') => ({
  id,
  name,
  email: `${id}@empresa.com`,
  profile,
  online: true,
  queues: queues.map(({ id, name, color }) => ({ id, name, color })),
});

function setup() {
  const calls = stubFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, sessionUser({ id: 1, profile: 'admin' }));
    if (pathname === '/queue') return json(200, [SUPORTE, VENDAS]);
    if (pathname === '/users/list')
      return json(200, [
        member(1, 'Admin sem fila', [], 'admin'),
        member(5, 'Bruna', [SUPORTE]),
        member(6, 'Caio', [VENDAS]),
        member(7, 'Duda', [SUPORTE, VENDAS]),
      ]);
    if (pathname === '/whatsapp') return json(200, []);
    if (pathname === '/tickets/12' && call.method === 'PUT')
      return json(200, ticketRow(12, { queueId: 4, userId: 6 }));
    return json(404, {});
  });
  const done = vi.fn();
  renderWithApp(
    <RequireSession>
      <TransferDialog ticket={ticketRow(12)} open onClose={() => {}} onDone={done} />
    </RequireSession>,
  );
  return { calls, done };
}

const userOptions = async () => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Usuário' }));
  const listbox = await screen.findByRole('listbox');
  const names = within(listbox)
    .getAllByRole('option')
    .map((option) => option.textContent);
  fireEvent.keyDown(listbox, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  return names;
};

const chooseQueue = async (name: string) => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: /Fila/ }));
  fireEvent.click(await screen.findByRole('option', { name }));
};

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TransferDialog', () => {
  it('offers only the users of the chosen queue and the caller, once a queue is chosen', async () => {
    const { calls, done } = setup();
    const users = await screen.findByRole('combobox', { name: 'Usuário' });
    expect(users.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Escolha a fila para ver os usuários dela')).toBeTruthy();
    await waitFor(() =>
      expect(calls.some((call) => call.url.pathname === '/users/list')).toBe(true),
    );

    await chooseQueue('Suporte');
    expect(await userOptions()).toEqual(['Nenhum (aguardando)', 'Admin sem fila', 'Bruna', 'Duda']);

    await chooseQueue('Vendas');
    expect(await userOptions()).toEqual(['Nenhum (aguardando)', 'Admin sem fila', 'Caio', 'Duda']);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Usuário' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Caio' }));
    fireEvent.click(screen.getByRole('button', { name: 'Transferir' }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      transfer: true,
      queueId: 4,
      userId: 6,
      status: 'open',
    });
  });
});
