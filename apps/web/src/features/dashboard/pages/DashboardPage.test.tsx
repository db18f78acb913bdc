import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { attendantRecord, dashboardRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { DashboardPage } from './DashboardPage';

const admin = sessionUser({ id: 1, profile: 'admin' });

const figures = dashboardRecord(
  {
    supportHappening: 4,
    supportPending: 2,
    supportFinished: 17,
    leads: 9,
    avgSupportTime: 75,
    avgWaitTime: 12.4,
  },
  [
    attendantRecord(2, 'Ana Souza', { rating: 2.5, avgSupportTime: 45, tickets: 11, online: true }),
    attendantRecord(3, 'Bruno Lima', { avgSupportTime: 9, tickets: 6 }),
  ],
);

function serve(extra?: (call: Call) => Response | Promise<Response> | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/dashboard') return json(200, figures);
    if (pathname === '/dashboard/ticketsUsers') {
      return json(200, {
        data: [
          { name: 'Ana Souza', quantidade: 11 },
          { name: 'Bruno Lima', quantidade: 6 },
        ],
        count: 17,
      });
    }
    if (pathname === '/dashboard/ticketsDay') {
      return json(200, {
        data: [
          { data: '14/03/2025', total: 5 },
          { data: '15/03/2025', total: 3 },
        ],
        count: 8,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

const renderPage = () =>
  renderWithApp(
    <RequireSession>
      <DashboardPage />
    </RequireSession>,
  );

const callsTo = (calls: Call[], path: string) =>
  calls
    .filter((call) => call.url.pathname === path)
    .map((call) => Object.fromEntries(call.url.searchParams));

beforeAll(async () => {
  await i18n.loadNamespaces(['dashboard']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
  // 15/03/2025 09:00 in São Paulo, the company's default clock.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-03-15T12:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('DashboardPage', () => {
  it('shows the counters, the attendants and both charts from the API', async () => {
    serve();
    renderPage();
    // the figures arrive with the first answer
    await screen.findByText('1h 15m', undefined, { timeout: 5000 });
    const card = (name: string) => within(screen.getByRole('region', { name }));
    expect(card('Em Conversa').getByText('4')).toBeTruthy();
    expect(card('Aguardando').getByText('2')).toBeTruthy();
    expect(card('Finalizados').getByText('17')).toBeTruthy();
    expect(card('Novos Contatos').getByText('9')).toBeTruthy();
    expect(card('T.M. de Conversa').getByText('1h 15m')).toBeTruthy();
    expect(card('T.M. de Espera').getByText('12m')).toBeTruthy();

    const attendants = screen.getByRole('table', { name: 'Atendentes' });
    const ana = within(attendants).getByRole('rowheader', { name: 'Ana Souza' }).closest('tr')!;
    expect(within(ana).getByText('2,5 de 3 – Muito satisfeito')).toBeTruthy();
    expect(within(ana).getByText('45m')).toBeTruthy();
    expect(within(ana).getByText('Online')).toBeTruthy();
    const bruno = within(attendants).getByRole('rowheader', { name: 'Bruno Lima' }).closest('tr')!;
    expect(within(bruno).getByText('Sem avaliações')).toBeTruthy();
    expect(within(bruno).getByText('Offline')).toBeTruthy();

    const perUser = await screen.findByRole('figure', { name: 'Conversas por usuário' });
    expect(perUser.getAttribute('aria-describedby')).toBeTruthy();
    const userRow = await within(perUser).findByRole('row', { name: 'Ana Souza 11' });
    expect(userRow).toBeTruthy();
    const perDay = screen.getByRole('figure', { name: 'Tickets por dia' });
    expect(await within(perDay).findByText('Total (8)')).toBeTruthy();
    expect(within(perDay).getByRole('row', { name: '14/03 5' })).toBeTruthy();
  });

  it('shows skeletons in the final layout while the figures load: no dash, no false empty table', async () => {
    let answer: (response: Response) => void = () => {};
    serve((call) =>
      call.url.pathname === '/dashboard'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    renderPage();
    const waiting = await screen.findByRole('region', { name: 'Aguardando' }, { timeout: 5000 });
    expect(waiting.getAttribute('aria-busy')).toBe('true');
    expect(within(waiting).queryByText('–')).toBeNull();
    expect(waiting.querySelector('.MuiSkeleton-root')).toBeTruthy();
    const attendants = screen.getByRole('table', { name: 'Atendentes' });
    expect(attendants.getAttribute('aria-busy')).toBe('true');
    expect(within(attendants).queryByText('Nenhum atendente')).toBeNull();
    expect(attendants.querySelectorAll('tbody .MuiSkeleton-root').length).toBeGreaterThan(0);
    // the attendants come last, so their rows arriving moves nothing already drawn
    const perDay = await screen.findByRole('figure', { name: 'Tickets por dia' });
    await waitFor(() => expect(perDay.getAttribute('aria-busy')).toBe('false'));
    expect(
      perDay.compareDocumentPosition(attendants) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();

    answer(json(200, figures));
    expect(await within(waiting).findByText('2')).toBeTruthy();
    expect(waiting.getAttribute('aria-busy')).toBe('false');
    expect(within(attendants).getByRole('rowheader', { name: 'Ana Souza' })).toBeTruthy();
    expect(attendants.querySelector('.MuiSkeleton-root')).toBeNull();
  });

  it('exports the attendants table as atendentes.csv', async () => {
    serve();
    let exported: Blob | undefined;
    let fileName = '';
    // the test DOM has no object URLs: keep the file the page hands to the browser
    URL.createObjectURL = (blob: Blob) => {
      exported = blob;
      return 'blob:atendentes';
    };
    URL.revokeObjectURL = () => {};
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      fileName = this.download;
    });
    renderPage();
    await screen.findByRole('rowheader', { name: 'Ana Souza' }, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(fileName).toBe('atendentes.csv');
    const text = await exported!.text();
    expect(text.replace(/^\uFEFF/, '')).toBe(
      [
        'Nome;Avaliações;Finalizados;T.M. de Atendimento (min);Status (Atual)',
        'Ana Souza;2.5;11;45;Online',
        'Bruno Lima;;6;9;Offline',
        '',
      ].join('\r\n'),
    );
  });

  it('asks for the month so far, then for the chosen period; no period asks nothing', async () => {
    const calls = serve();
    renderPage();
    await waitFor(() =>
      expect(callsTo(calls, '/dashboard')).toEqual([
        { date_from: '2025-03-01', date_to: '2025-03-15' },
      ]),
    );
    await waitFor(() =>
      expect(callsTo(calls, '/dashboard/ticketsUsers')).toEqual([
        { initialDate: '2025-03-01', finalDate: '2025-03-15' },
      ]),
    );

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tipo de filtro' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Filtro por período' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Parametrize o filtro');
    expect(screen.queryByLabelText('Data inicial')).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Período' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Últimos 7 dias' }));
    await waitFor(() => expect(callsTo(calls, '/dashboard').at(-1)).toEqual({ days: '7' }));
    await waitFor(() =>
      expect(callsTo(calls, '/dashboard/ticketsDay').at(-1)).toEqual({
        initialDate: '2025-03-09',
        finalDate: '2025-03-15',
      }),
    );
    expect(callsTo(calls, '/dashboard')).toHaveLength(2);
  });

  it('sends the dates typed in the date filter', async () => {
    const calls = serve();
    renderPage();
    fireEvent.change(await screen.findByLabelText('Data inicial'), {
      target: { value: '2025-02-10' },
    });
    fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2025-02-10' } });
    await waitFor(() =>
      expect(callsTo(calls, '/dashboard').at(-1)).toEqual({
        date_from: '2025-02-10',
        date_to: '2025-02-10',
      }),
    );
    await waitFor(() =>
      expect(callsTo(calls, '/dashboard/ticketsDay').at(-1)).toEqual({
        initialDate: '2025-02-10',
        finalDate: '2025-02-10',
      }),
    );
  });

  it("shows each chart's failure message in its place", async () => {
    serve((call) =>
      call.url.pathname.startsWith('/dashboard/tickets')
        ? json(500, { error: 'ERR_INTERNAL' })
        : undefined,
    );
    renderPage();
    expect(await screen.findByText('Erro ao obter informações da conversa')).toBeTruthy();
    expect(await screen.findByText('Erro ao buscar informações dos tickets')).toBeTruthy();
    // the counters still came
    expect(await screen.findByText('1h 15m')).toBeTruthy();
  });
});
