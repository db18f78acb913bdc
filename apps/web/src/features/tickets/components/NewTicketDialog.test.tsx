import type { SessionUser } from '@atendi/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { ticketRow } from '../tickets.fixtures';
import { NewTicketDialog } from './NewTicketDialog';

const contact = {
  id: 40,
  name: 'Bruno Lima',
  number: '5511977776666',
  email: '',
  profilePicUrl: '',
  isGroup: false,
  extraInfo: [],
  whatsappId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function setup(user: SessionUser, onPost: (call: Call) => Response) {
  const calls = stubFetch((call) => {
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/queue') return json(200, [queueRecord(3, 'Suporte', '#1976d2')]);
    if (pathname === '/contacts')
      return json(200, { contacts: [contact], count: 1, countExact: true, hasMore: false });
    if (pathname === '/tickets' && call.method === 'POST') return onPost(call);
    return json(404, {});
  });
  const opened = vi.fn();
  renderWithApp(
    <RequireSession>
      <NewTicketDialog open onClose={() => {}} onOpened={opened} />
    </RequireSession>,
  );
  return { calls, opened };
}

async function pickContact() {
  const input = await screen.findByRole('combobox', { name: 'Contato' });
  fireEvent.change(input, { target: { value: 'Br' } });
  expect(await screen.findByText('Digite ao menos 3 letras para buscar')).toBeTruthy();
  fireEvent.change(input, { target: { value: 'Bru' } });
  fireEvent.click(await screen.findByRole('option', { name: /Bruno Lima/ }, { timeout: 2000 }));
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NewTicketDialog', () => {
  it('asks a user to pick a queue', { timeout: 20_000 }, async () => {
    const agent = sessionUser({
      queues: [
        { id: 3, name: 'Suporte', color: '#1976d2' },
        { id: 4, name: 'Vendas', color: '#000' },
      ],
    });
    const { calls, opened } = setup(agent, () => json(201, ticketRow(77)));
    await pickContact();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Selecione uma fila')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Fila' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Vendas' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(opened).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      contactId: 40,
      queueId: 4,
      userId: 2,
      status: 'open',
    });
  });

  it('lets an admin start without a queue', async () => {
    const admin = sessionUser({ id: 1, profile: 'admin' });
    const { calls, opened } = setup(admin, () => json(201, ticketRow(77)));
    await pickContact();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(opened).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ queueId: null });
  });

  it('lets an admin with no queue of its own choose any queue of the company', async () => {
    const admin = sessionUser({ id: 1, profile: 'admin', queues: [] });
    const { calls, opened } = setup(admin, () => json(201, ticketRow(77)));
    await pickContact();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Fila' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(opened).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ queueId: 3 });
  });

  it("names the other agent and queue when the contact's ticket is taken", async () => {
    const admin = sessionUser({ id: 1, profile: 'admin' });
    const held = ticketRow(8, { userId: 9, user: { id: 9, name: 'Rita' } });
    const { opened } = setup(admin, () =>
      json(409, { error: 'ERR_OTHER_OPEN_TICKET', ticket: held }),
    );
    await pickContact();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(
      await screen.findByText('Este contato já está em atendimento com Rita na fila Suporte.'),
    ).toBeTruthy();
    expect(opened).not.toHaveBeenCalled();
  });
});
