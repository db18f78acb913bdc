import type { Help, Plan } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { companyRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { colorOf } from '../../../test/style';
import { SettingsPage } from '../../settings/pages/SettingsPage';
import { nextDueDate } from '../dueDate';

const superUser = sessionUser({ id: 1, profile: 'admin', super: true });

const plan = (id: number, extra: Partial<Plan> = {}): Plan => ({
  id,
  name: `Plano ${id}`,
  users: 5,
  connections: 2,
  queues: 3,
  value: 99.9,
  useCampaigns: true,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
  ...extra,
});

const help = (id: number): Help => ({
  id,
  title: `Vídeo ${id}`,
  video: `code${id}`,
  description: 'Como fazer',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

const isoIn = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

function serve(
  extra?: (call: { method: string; url: URL; body: unknown }) => Response | undefined,
) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, superUser);
    if (pathname === '/settings') return json(200, []);
    if (pathname === '/plans/all') return json(200, [plan(1), plan(2)]);
    if (pathname === '/helps/list') return json(200, [help(1)]);
    if (pathname === '/companies' && call.method === 'GET') {
      return json(200, {
        companies: [
          companyRecord(1, { name: 'Soon Co', dueDate: isoIn(5), recurrence: 'TRIMESTRAL' }),
          companyRecord(2, { name: 'Late Co', dueDate: isoIn(-10) }),
          companyRecord(3, { name: 'Calm Co', dueDate: isoIn(40) }),
        ],
        count: 3,
        hasMore: false,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

const renderPage = (route: string) =>
  renderWithApp(
    <RequireSession>
      <SettingsPage />
    </RequireSession>,
    { route },
  );

beforeAll(async () => {
  await i18n.loadNamespaces(['settings', 'companies', 'plans', 'helps']);
});
beforeEach(() => localStorage.setItem('token', JSON.stringify('token')));
afterEach(() => vi.unstubAllGlobals());

describe('Settings, the super user tabs', () => {
  it('shows Empresas, Planos and Ajuda to the super user', async () => {
    serve();
    renderPage('/settings');
    for (const name of ['Opções', 'Empresas', 'Planos', 'Ajuda']) {
      expect(await screen.findByRole('tab', { name }, { timeout: 5000 })).toBeTruthy();
    }
  });

  it('tints companies by due date and moves one on by its recurrence with + Vencimento', async () => {
    const calls = serve((call) =>
      call.method === 'PUT'
        ? json(
            200,
            companyRecord(1, {
              name: 'Soon Co',
              dueDate: (call.body as { dueDate: string }).dueDate,
            }),
          )
        : undefined,
    );
    renderPage('/settings?tab=companies');
    const soon = (await screen.findByText('Soon Co', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(soon).getByText('Vence em 5 dias')).toBeTruthy();
    expect(colorOf(soon, 'backgroundColor')).toBe('rgb(255, 254, 173)');
    const late = screen.getByText('Late Co').closest('tr')!;
    expect(colorOf(late, 'backgroundColor')).toBe('rgb(250, 140, 140)');
    const calm = screen.getByText('Calm Co').closest('tr')!;
    expect(colorOf(calm, 'backgroundColor')).not.toBe('rgb(250, 140, 140)');

    fireEvent.click(screen.getByRole('button', { name: '+ Vencimento de Soon Co' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.url.pathname).toBe('/companies/1');
    // three months on, as nextDueDate counts them (its own tests hold the calendar cases)
    expect((put.body as { dueDate: string }).dueDate).toBe(nextDueDate(isoIn(5), 'TRIMESTRAL'));
  });

  it('requires e-mail and plan, sends an unreadable due date as null, and explains a duplicate name', async () => {
    const calls = serve((call) =>
      call.method === 'POST' && call.url.pathname === '/companies'
        ? json(409, { error: 'ERR_DUPLICATED_COMPANY' })
        : undefined,
    );
    renderPage('/settings?tab=companies');
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova empresa' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Nova Co' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findAllByText('Obrigatório')).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'nova@co.com' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Plano' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Plano 2' }));
    fireEvent.change(within(dialog).getByLabelText('CEP'), { target: { value: '01001-000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toMatchObject({
      name: 'Nova Co',
      email: 'nova@co.com',
      planId: 2,
      dueDate: null,
      addressZipCode: '01001-000',
    });
    expect(
      await screen.findByText(/Verifique se já existe uma empresa com o mesmo nome/),
    ).toBeTruthy();
    expect(within(dialog).getByText('Já existe uma empresa com este nome.')).toBeTruthy();
  });

  it('lists plans with value in BRL and saves the seven flags', async () => {
    const calls = serve((call) =>
      call.method === 'POST' && call.url.pathname === '/plans'
        ? json(201, plan(3, { name: 'Pro' }))
        : undefined,
    );
    renderPage('/settings?tab=plans');
    const row = (await screen.findByText('Plano 1', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(row).getByText('R$ 99,90')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo plano' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Pro' } });
    fireEvent.change(within(dialog).getByLabelText('Valor'), { target: { value: '149.5' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Kanban' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      name: 'Pro',
      value: 149.5,
      useKanban: true,
      useCampaigns: false,
    });
  });

  it("takes a plan's value as Portuguese writes money ('1.019,90') and says when it is no amount", async () => {
    const calls = serve((call) =>
      call.method === 'POST' && call.url.pathname === '/plans'
        ? json(201, plan(3, { name: 'Básico' }))
        : undefined,
    );
    renderPage('/settings?tab=plans');
    await screen.findByText('Plano 1', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo plano' });
    expect(within(dialog).getByText('R$')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Básico' } });
    const value = within(dialog).getByLabelText('Valor');
    fireEvent.change(value, { target: { value: 'dezenove' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Valor inválido')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.change(value, { target: { value: '1.019,90' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({ value: 1019.9 });
  });

  it('shows a plan being edited with the decimal mark of English', async () => {
    const calls = serve((call) =>
      call.method === 'PUT' ? json(200, plan(1, { value: 19.9 })) : undefined,
    );
    await i18n.changeLanguage('en');
    try {
      renderPage('/settings?tab=plans');
      const row = (await screen.findByText('Plano 1', {}, { timeout: 5000 })).closest('tr')!;
      fireEvent.click(within(row).getByRole('button', { name: 'Edit Plano 1' }));
      const dialog = await screen.findByRole('dialog');
      const value = within(dialog).getByLabelText('Value') as HTMLInputElement;
      expect(value.value).toBe('99.90');
      fireEvent.change(value, { target: { value: '19.90' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
      expect(calls.find((call) => call.method === 'PUT')!.body).toMatchObject({ value: 19.9 });
    } finally {
      await i18n.changeLanguage('pt');
    }
  });

  it('shows the spec message when a delete fails', async () => {
    serve((call) =>
      call.method === 'DELETE' ? json(409, { error: 'ERR_PLAN_IN_USE' }) : undefined,
    );
    renderPage('/settings?tab=plans');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Excluir Plano 1' }, { timeout: 5000 }),
    );
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }),
    );
    expect(await screen.findByText('Não foi possível realizar a operação')).toBeTruthy();
  });

  it('adds a help video', async () => {
    const calls = serve((call) =>
      call.method === 'POST' && call.url.pathname === '/helps' ? json(201, help(2)) : undefined,
    );
    renderPage('/settings?tab=helps');
    expect(await screen.findByText('Vídeo 1', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novo vídeo de ajuda' });
    fireEvent.change(within(dialog).getByLabelText('Título'), {
      target: { value: 'Primeiros passos' },
    });
    fireEvent.change(within(dialog).getByLabelText('Código do vídeo'), {
      target: { value: 'dQw4w9WgXcQ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      title: 'Primeiros passos',
      video: 'dQw4w9WgXcQ',
    });
  });
});
