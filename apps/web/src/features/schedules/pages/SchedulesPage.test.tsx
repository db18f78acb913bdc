import type { Schedule } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { contactRecord, scheduleRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { SchedulesPage } from './SchedulesPage';

const maria = { id: 7, name: 'Maria Souza', number: '5511911112222' };
const bruno = contactRecord(40, 'Bruno Lima', '5511977776666');
/** Days from now, at noon: inside the agenda's month from today. */
const inDays = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() + days);
  date.setHours(12, 0, 0, 0);
  return date.toISOString();
};

function serve(schedules: Schedule[], extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') {
      return json(200, sessionUser({ company: { plan: { useSchedules: true } as never } }));
    }
    if (pathname === '/schedules' && call.method === 'GET') {
      return json(200, { schedules, count: schedules.length, hasMore: false });
    }
    if (pathname === '/contacts/40') return json(200, bruno);
    if (pathname === '/contacts') {
      return json(200, { contacts: [bruno], count: 1, countExact: true, hasMore: false });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/schedules') {
  return renderWithApp(
    <RequireSession>
      <SchedulesPage />
    </RequireSession>,
    { route },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['schedules', 'contacts']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SchedulesPage', () => {
  it('counts the schedules in the title and lists them by contact in the agenda', async () => {
    serve([
      scheduleRecord(1, maria, { sendAt: inDays(1) }),
      scheduleRecord(
        2,
        { id: 8, name: 'João Reis', number: '5511933334444' },
        { sendAt: inDays(2) },
      ),
    ]);
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Agendamentos (2)' }, { timeout: 5000 }),
    ).toBeTruthy();
    for (const label of ['Hoje', 'Anterior', 'Próximo', 'Mês', 'Semana', 'Dia']) {
      expect(screen.getByRole('button', { name: label })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Agenda' }));
    expect(await screen.findByText('Maria Souza')).toBeTruthy();
    expect(screen.getByText('João Reis')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Editar agendamento de Maria Souza' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Excluir agendamento de João Reis' })).toBeTruthy();
  });

  it("refuses a short text, a missing contact and a missing time with the spec's messages", async () => {
    const calls = serve([]);
    renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Novo agendamento' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Novo agendamento' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Mensagem' }), {
      target: { value: 'Oi' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), {
      target: { value: '' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeTruthy();
    expect(within(dialog).getAllByText('Obrigatório')).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("opens the add dialog preset to ?contactId and saves the company's time as an instant", async () => {
    const calls = serve([], (call) =>
      call.method === 'POST' && call.url.pathname === '/schedules'
        ? json(201, scheduleRecord(30, bruno, { body: 'Seu pedido chegou!' }))
        : undefined,
    );
    renderPage('/schedules?contactId=40');
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Novo agendamento' },
      { timeout: 5000 },
    );
    expect(await within(dialog).findByDisplayValue('Bruno Lima - 5511977776666')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Mensagem' }), {
      target: { value: 'Seu pedido chegou!' },
    });
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), {
      target: { value: '2031-03-04T09:15' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull(),
      { timeout: 5000 },
    );
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      contactId: 40,
      body: 'Seu pedido chegou!',
      // 09:15 on the company's clock (São Paulo, UTC-3), whatever the browser's zone
      sendAt: '2031-03-04T12:15:00.000Z',
    });
  });

  it('shows a sent schedule read-only, its status in the title and no save button', async () => {
    const sent = scheduleRecord(5, maria, {
      sendAt: inDays(1),
      sentAt: inDays(1),
      status: 'ENVIADA',
      ticketId: 3,
    });
    const calls = serve([sent]);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Agenda' }, { timeout: 5000 }));
    fireEvent.click(
      await screen.findByRole('button', { name: 'Editar agendamento de Maria Souza' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Mensagem Enviada' });
    expect(within(dialog).getByRole('textbox', { name: 'Mensagem' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(dialog).queryByRole('button', { name: 'Salvar' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('names a failed schedule "Erro de Envio" and deletes after confirmation', async () => {
    const failed = scheduleRecord(6, maria, { sendAt: inDays(1), status: 'ERRO' });
    const calls = serve([failed], (call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Agenda' }, { timeout: 5000 }));
    fireEvent.click(
      await screen.findByRole('button', { name: 'Editar agendamento de Maria Souza' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Erro de Envio' });
    expect(within(dialog).getByRole('button', { name: 'Salvar' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Excluir agendamento de Maria Souza' }));
    const confirm = await screen.findByRole('dialog', { name: /Excluir o agendamento de Maria/ });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/schedules/6');
    await waitFor(() => expect(screen.queryByText('Maria Souza')).toBeNull());
  });
});
