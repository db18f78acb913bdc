import type { Campaign, CampaignDetail } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { CampaignReportPage, progressOf } from './CampaignReportPage';
import { addVariable, CampaignsConfigPage } from './CampaignsConfigPage';
import { CampaignsPage } from './CampaignsPage';

const messages = {
  message1: 'Olá',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
};

const campaign = (id: number, overrides: Partial<Campaign> = {}): Campaign => ({
  id,
  name: `Campanha ${id}`,
  ...messages,
  status: 'INATIVA',
  confirmation: false,
  scheduledAt: null,
  completedAt: null,
  whatsappId: null,
  contactListId: null,
  tagListId: null,
  fileListId: null,
  companyId: 1,
  mediaPath: null,
  mediaName: null,
  contactList: null,
  whatsapp: null,
  createdAt: '2030-01-01T10:00:00.000Z',
  updatedAt: '2030-01-01T10:00:00.000Z',
  ...overrides,
});

const admin = () =>
  sessionUser({
    profile: 'admin',
    company: {
      plan: { useCampaigns: true } as never,
      settings: [{ key: 'timezone', value: 'America/Sao_Paulo' }],
    },
  });

function serve(records: Campaign[], extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, admin());
    if (pathname === '/campaigns' && call.method === 'GET') {
      return json(200, { records, count: records.length, hasMore: false });
    }
    if (pathname === '/contact-lists/list') return json(200, [{ id: 3, name: 'Clientes' }]);
    if (pathname === '/whatsapp') return json(200, []);
    if (pathname === '/tags/list') return json(200, []);
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

const renderList = () =>
  renderWithApp(
    <RequireSession>
      <CampaignsPage />
    </RequireSession>,
    { route: '/campaigns' },
  );

beforeAll(async () => {
  await i18n.loadNamespaces(['campaigns']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CampaignsPage', () => {
  it("shows the spec's fallbacks and the actions each status allows", async () => {
    serve([
      campaign(1, { status: 'EM_ANDAMENTO', confirmation: true }),
      campaign(2, {
        status: 'CANCELADA',
        contactList: { id: 3, name: 'Clientes' },
        whatsapp: { id: 4, name: 'Comercial' },
      }),
    ]);
    renderList();
    const running = (await screen.findByText('Campanha 1', {}, { timeout: 5000 })).closest('tr')!;
    const cancelled = screen.getByText('Campanha 2').closest('tr')!;
    const inRunning = within(running);
    expect(inRunning.getByText('Em Andamento')).toBeTruthy();
    expect(inRunning.getByText('Não definida')).toBeTruthy();
    expect(inRunning.getByText('Não definido')).toBeTruthy();
    expect(inRunning.getByText('Sem agendamento')).toBeTruthy();
    expect(inRunning.getByText('Não concluída')).toBeTruthy();
    expect(inRunning.getByText('Habilitada')).toBeTruthy();
    expect(inRunning.getByRole('button', { name: 'Parar campanha Campanha 1' })).toBeTruthy();
    expect(inRunning.queryByRole('button', { name: /Reiniciar/ })).toBeNull();
    const inCancelled = within(cancelled);
    expect(inCancelled.getByText('Clientes')).toBeTruthy();
    expect(inCancelled.getByText('Comercial')).toBeTruthy();
    expect(inCancelled.getByText('Desabilitada')).toBeTruthy();
    expect(inCancelled.getByRole('button', { name: 'Reiniciar campanha Campanha 2' })).toBeTruthy();
    expect(inCancelled.queryByRole('button', { name: /Parar/ })).toBeNull();
    expect(inCancelled.getByRole('button', { name: 'Relatório de Campanha 2' })).toBeTruthy();
  });

  it('starts now a campaign left without a schedule, once it has a connection and a list', async () => {
    const calls = serve(
      [
        campaign(1, { whatsappId: 4, contactListId: 3 }),
        campaign(2, { whatsappId: null, contactListId: 3 }),
        campaign(3, { status: 'PROGRAMADA', whatsappId: 4, contactListId: 3 }),
      ],
      (call) =>
        call.url.pathname === '/campaigns/1/restart'
          ? json(200, campaign(1, { status: 'EM_ANDAMENTO', whatsappId: 4, contactListId: 3 }))
          : undefined,
    );
    renderList();
    const start = await screen.findByRole(
      'button',
      { name: 'Iniciar agora a campanha Campanha 1' },
      { timeout: 5000 },
    );
    const incomplete = screen.getByRole('button', { name: 'Iniciar agora a campanha Campanha 2' });
    expect((incomplete as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.queryByRole('button', { name: 'Iniciar agora a campanha Campanha 3' }),
    ).toBeNull();
    fireEvent.click(start);
    expect(await screen.findByText('Campanha iniciada')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/campaigns/1/restart',
    ]);
  });

  it('stops a running campaign and shows a failure in a toast', async () => {
    const calls = serve([campaign(1, { status: 'EM_ANDAMENTO' })], (call) => {
      if (call.url.pathname === '/campaigns/1/cancel') {
        return json(400, { error: 'ERR_VALIDATION', fields: [] });
      }
      return undefined;
    });
    renderList();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Parar campanha Campanha 1' }, { timeout: 5000 }),
    );
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'POST' && c.url.pathname === '/campaigns/1/cancel'),
      ).toBe(true),
    );
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('creates a campaign with the spec form: the date as text, none as null', async () => {
    const calls = serve([], (call) => {
      if (call.url.pathname === '/campaigns' && call.method === 'POST') {
        return json(201, campaign(9, { name: 'Natal' }));
      }
      return undefined;
    });
    renderList();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Nova campanha' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Msg.1', 'Msg.2', 'Msg.3', 'Msg.4', 'Msg.5']);
    fireEvent.change(within(dialog).getByLabelText(/Nome/), { target: { value: 'N' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    // the spec's own text for the campaign's name, as it writes it
    expect(await within(dialog).findByText('Too Short!')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Nome/), { target: { value: 'Natal' } });
    fireEvent.change(within(dialog).getByLabelText('Agendamento'), {
      target: { value: '2031-12-20T09:30' },
    });
    fireEvent.change(within(dialog).getByLabelText('Mensagem 1'), {
      target: { value: 'Feliz Natal, {{contactFirstName}}!' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/campaigns')).toBe(true),
    );
    const sent = calls.find((c) => c.method === 'POST' && c.url.pathname === '/campaigns')!;
    expect(sent.body).toMatchObject({
      name: 'Natal',
      scheduledAt: '2031-12-20 09:30:00',
      message1: 'Feliz Natal, {{contactFirstName}}!',
      contactListId: null,
      whatsappId: null,
      tagListId: null,
      confirmation: false,
    });
  });

  it("reads and writes the date on the company's clock, so a save without change keeps it", async () => {
    // the test runs with the browser's clock on UTC; the company is on São Paulo's (UTC-3)
    const scheduled = campaign(4, {
      status: 'PROGRAMADA',
      scheduledAt: '2031-11-27T05:05:00.000Z',
    });
    const calls = serve([scheduled], (call) =>
      call.url.pathname === '/campaigns/4' && call.method === 'PUT'
        ? json(200, scheduled)
        : undefined,
    );
    renderList();
    const row = (await screen.findByText('Campanha 4', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(row).getByText('27/11/2031 02:05')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Editar Campanha 4' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Agendamento') as HTMLInputElement).value).toBe(
      '2031-11-27T02:05',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
      scheduledAt: '2031-11-27 02:05:00',
    });
  });

  it('opens a running campaign read-only', async () => {
    serve([campaign(1, { status: 'EM_ANDAMENTO' })]);
    renderList();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Editar Campanha 1' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Esta campanha não pode mais ser editada.')).toBeTruthy();
    expect((within(dialog).getByLabelText(/Nome/) as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText('Mensagem 1') as HTMLTextAreaElement).disabled).toBe(
      true,
    );
    expect(within(dialog).queryByRole('button', { name: 'Salvar' })).toBeNull();
  });
});

describe('CampaignsConfigPage', () => {
  it('ignores a variable whose key exists', () => {
    const list = addVariable([], { key: 'loja', value: 'Centro' });
    expect(addVariable(list, { key: 'loja', value: 'Outra' })).toEqual([
      { key: 'loja', value: 'Centro' },
    ]);
    expect(addVariable(list, { key: '  ', value: 'x' })).toBe(list);
  });

  it('shows the three intervals and saves the variables added', async () => {
    const calls = serve([], (call) => {
      if (call.url.pathname !== '/campaign-settings') return undefined;
      return json(200, [
        { key: 'messageInterval', value: '20' },
        { key: 'longerIntervalAfter', value: '20' },
        { key: 'greaterInterval', value: '60' },
        { key: 'variables', value: '[]' },
        { key: 'optOutWords', value: '["SAIR","PARAR","STOP"]' },
        { key: 'dailyLimit', value: '0' },
      ]);
    });
    renderWithApp(
      <RequireSession>
        <CampaignsConfigPage />
      </RequireSession>,
      { route: '/campaigns-config' },
    );
    expect(
      await screen.findByLabelText('Intervalo randômico de disparo', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByLabelText('Intervalo maior após')).toBeTruthy();
    expect(screen.getByLabelText('Intervalo de disparo maior')).toBeTruthy();
    for (const value of ['Centro', 'Outra']) {
      fireEvent.change(screen.getByLabelText('Atalho'), { target: { value: 'loja' } });
      fireEvent.change(screen.getByLabelText('Conteúdo'), { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    }
    expect(screen.getAllByRole('button', { name: 'Remover loja' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Salvar configurações' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      settings: {
        messageInterval: 20,
        longerIntervalAfter: 20,
        greaterInterval: 60,
        variables: [{ key: 'loja', value: 'Centro' }],
        optOutWords: ['SAIR', 'PARAR', 'STOP'],
        dailyLimit: 0,
      },
    });
  });
});

describe('CampaignReportPage', () => {
  const detail = (overrides: Partial<CampaignDetail> = {}): CampaignDetail => ({
    ...campaign(5, { status: 'EM_ANDAMENTO', confirmation: true }),
    report: {
      validContacts: 200,
      delivered: 50,
      confirmationRequested: 120,
      confirmed: 60,
      optedOut: 3,
      failed: 0,
      timeline: [{ at: '2030-01-01T10:00:00.000Z', delivered: 50 }],
    },
    ...overrides,
  });

  it('reads delivered of valid contacts as the progress', () => {
    expect(progressOf(detail().report)).toBe(25);
    expect(progressOf({ ...detail().report, validContacts: 0 })).toBe(0);
  });

  it('shows the status, the progress and the cards', async () => {
    serve([], (call) => (call.url.pathname === '/campaigns/5' ? json(200, detail()) : undefined));
    renderWithApp(
      <RequireSession>
        <Routes>
          <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
        </Routes>
      </RequireSession>,
      { route: '/campaign/5/report' },
    );
    expect(
      await screen.findByText('Em Andamento: 50 de 200 entregues', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText('Confirmações solicitadas')).toBeTruthy();
    expect(screen.getByText('120')).toBeTruthy();
    expect(screen.getByText('Sem agendamento')).toBeTruthy();
    expect(screen.getByText('Não concluída')).toBeTruthy();
  });
});
