import {
  type CompanySchedule,
  DEFAULT_SCHEDULES,
  DEFAULT_SETTINGS,
  type Setting,
  SUPER_SETTING_KEYS,
} from '@atendi/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { companyRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { SettingsPage } from './SettingsPage';

const admin = sessionUser({ id: 1, profile: 'admin' });
const superUser = sessionUser({ id: 1, profile: 'admin', super: true });

/** GET /settings as an admin gets it: every setting but the super user's. */
function settingsList(changes: Partial<Record<string, string>> = {}): Setting[] {
  return Object.entries({ ...DEFAULT_SETTINGS, ...changes })
    .filter(([key]) => !(SUPER_SETTING_KEYS as readonly string[]).includes(key))
    .map(([key, value]) => ({ key, value: value as string }));
}

interface ServeOptions {
  user?: typeof admin;
  settings?: Setting[];
  schedules?: CompanySchedule[];
  extra?: (call: Call) => Response | undefined;
}

function serve({
  user = admin,
  settings = settingsList(),
  schedules = DEFAULT_SCHEDULES,
  extra,
}: ServeOptions = {}) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/settings' && call.method === 'GET') return json(200, settings);
    if (pathname.startsWith('/settings/') && call.method === 'PUT') {
      const key = pathname.slice('/settings/'.length);
      return json(200, { key, value: (call.body as { value: string }).value });
    }
    if (pathname === '/companies/1' && call.method === 'GET') {
      return json(200, companyRecord(1, { schedules }));
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/settings', socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <SettingsPage />
      </RequireSession>
    </SocketContext.Provider>,
    { route },
  );
}

/** Opens a labelled select and picks an option. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

const combobox = (name: string) => screen.getByRole('combobox', { name });

beforeAll(async () => {
  await i18n.loadNamespaces(['settings']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SettingsPage, Opções', () => {
  it('shows one labelled select a setting with the original texts', async () => {
    serve({ settings: settingsList({ userRating: 'enabled', call: 'disabled' }) });
    renderPage();
    expect((await screen.findByRole('combobox', { name: 'Avaliações' })).textContent).toBe(
      'Habilitadas',
    );
    expect(combobox('Gerenciamento de Expediente').textContent).toBe('Desabilitado');
    expect(combobox('Aceitar Chamadas').textContent).toBe('Não aceitar');
    expect(combobox('Ignorar Mensagens de Grupos').textContent).toBe('Ativado');
    expect(combobox('Enviar saudação ao aceitar o ticket').textContent).toBe('Desabilitado');
    expect(combobox('Enviar mensagem de transferência de Fila/agente').textContent).toBe(
      'Desabilitado',
    );
    expect(combobox('Enviar saudação quando houver somente 1 fila').textContent).toBe('Habilitado');
    expect(combobox('Tipo do Bot').textContent).toBe('Texto');
    expect((combobox('Fuso horário') as HTMLInputElement).value).toMatch(/^America\/Sao Paulo/);

    fireEvent.mouseDown(combobox('Gerenciamento de Expediente'));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Desabilitado',
      'Fila',
      'Empresa',
    ]);
  });

  it('saves a change at once with PUT /settings/{key} and says so', async () => {
    const calls = serve();
    renderPage();
    await choose('Avaliações', 'Habilitadas');
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeTruthy();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.url.pathname, call.body])).toEqual([
      ['/settings/userRating', { value: 'enabled' }],
    ]);
    expect(combobox('Avaliações').textContent).toBe('Habilitadas');
  });

  it("shows the server's message and puts the value back when a save is refused", async () => {
    const calls = serve({
      extra: (call) =>
        call.method === 'PUT'
          ? json(400, { error: 'ERR_VALIDATION', fields: [{ path: 'body.value', message: 'x' }] })
          : undefined,
    });
    renderPage();
    await choose('Aceitar Chamadas', 'Aceitar');
    expect(await screen.findByText('Verifique os campos destacados.')).toBeTruthy();
    await waitFor(() => expect(combobox('Aceitar Chamadas').textContent).toBe('Não aceitar'));
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
    expect(screen.queryByText('Operação atualizada com sucesso.')).toBeNull();
  });

  it('finds a time zone by typing part of its name and saves it', async () => {
    const calls = serve();
    renderPage();
    const input = await screen.findByRole('combobox', { name: 'Fuso horário' });
    // typed into while focused, as a person does (unfocused, the select puts its label back)
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'manaus' } });
    fireEvent.click(await screen.findByRole('option', { name: /^America\/Manaus/ }));
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeTruthy();
    expect(
      calls.filter((call) => call.method === 'PUT').map((call) => [call.url.pathname, call.body]),
    ).toEqual([['/settings/timezone', { value: 'America/Manaus' }]]);
  });

  it("follows another admin's change on company-{id}-settings", async () => {
    serve();
    const { socket, serverEmit } = fakeSocket();
    renderPage('/settings', socket);
    expect((await screen.findByRole('combobox', { name: 'Avaliações' })).textContent).toBe(
      'Desabilitadas',
    );
    serverEmit('company-1-settings', {
      action: 'update',
      setting: { key: 'userRating', value: 'enabled' },
    });
    await waitFor(() => expect(combobox('Avaliações').textContent).toBe('Habilitadas'));
    // the hours tab appears when another admin moves the hours to the company
    expect(screen.queryByRole('tab', { name: 'Horários' })).toBeNull();
    serverEmit('company-1-settings', {
      action: 'update',
      setting: { key: 'scheduleType', value: 'company' },
    });
    expect(await screen.findByRole('tab', { name: 'Horários' })).toBeTruthy();
  });
});

describe('SettingsPage, the payment key', () => {
  /** PUT /settings/asaas as the server answers it: the key's masked hint, never the key. */
  const maskedSave = (call: Call) => {
    if (call.method !== 'PUT' || call.url.pathname !== '/settings/asaas') return undefined;
    const value = (call.body as { value: string }).value;
    return json(200, { key: 'asaas', value: value ? `********${value.slice(-4)}` : '' });
  };

  it('shows the super user the saved key as its hint only, and saves a typed key once', async () => {
    const calls = serve({
      user: superUser,
      settings: [...settingsList(), { key: 'asaas', value: '********6789' }],
      extra: maskedSave,
    });
    renderPage();
    const field = (await screen.findByLabelText('Chave da API do Asaas')) as HTMLInputElement;
    expect(screen.getByRole('heading', { name: 'Pagamentos' })).toBeTruthy();
    expect(field.type).toBe('password');
    // the field never holds the hint, so saving the page never sends it back
    expect(field.value).toBe('');
    expect(screen.getByText('Chave salva: ********6789')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Salvar chave' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(field, { target: { value: '  $aact_new_account_key_4321 ' } });
    fireEvent.click(save);
    expect(await screen.findByText('Chave salva: ********4321')).toBeTruthy();
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeTruthy();
    expect(field.value).toBe('');
    expect(
      calls.filter((call) => call.method === 'PUT').map((call) => [call.url.pathname, call.body]),
    ).toEqual([['/settings/asaas', { value: '$aact_new_account_key_4321' }]]);
    expect(document.body.innerHTML).not.toContain('new_account_key');
    // the other options stay as they were
    expect(combobox('Avaliações').textContent).toBe('Desabilitadas');
  });

  it('removes the key, after which the checkout is off', async () => {
    const calls = serve({
      user: superUser,
      settings: [...settingsList(), { key: 'asaas', value: '********6789' }],
      extra: maskedSave,
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Remover chave' }));
    expect(
      await screen.findByText(
        'Nenhuma chave salva: o pagamento das faturas por Pix fica desativado.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Chave removida.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remover chave' })).toBeNull();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ value: '' });
  });

  it('shows the payment key to nobody but the super user', async () => {
    serve();
    renderPage();
    expect(await screen.findByRole('combobox', { name: 'Avaliações' })).toBeTruthy();
    expect(screen.queryByLabelText('Chave da API do Asaas')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Pagamentos' })).toBeNull();
  });
});

describe('SettingsPage, tabs', () => {
  it('shows Horários only while scheduleType is company', async () => {
    serve({ settings: settingsList({ scheduleType: 'queue' }) });
    renderPage();
    expect(await screen.findByRole('tab', { name: 'Opções', selected: true })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Horários' })).toBeNull();
    await choose('Gerenciamento de Expediente', 'Empresa');
    fireEvent.click(await screen.findByRole('tab', { name: 'Horários' }));
    expect(await screen.findByRole('group', { name: 'Sábado' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Horários', selected: true })).toBeTruthy();
  });

  it('opens the tab the query names', async () => {
    serve({ settings: settingsList({ scheduleType: 'company' }) });
    renderPage('/settings?tab=schedules');
    expect(await screen.findByRole('tab', { name: 'Horários', selected: true })).toBeTruthy();
    expect(await screen.findByRole('group', { name: 'Segunda-feira' })).toBeTruthy();
  });

  it.each(['companies', 'plans', 'helps', 'nonsense'])(
    'opens Opções for ?tab=%s, a tab it does not have',
    async (tab) => {
      serve({ settings: settingsList({ scheduleType: 'company' }) });
      renderPage(`/settings?tab=${tab}`);
      expect(await screen.findByRole('tab', { name: 'Opções', selected: true })).toBeTruthy();
      expect(screen.getByRole('combobox', { name: 'Avaliações' })).toBeTruthy();
    },
  );

  it('falls back to Opções when the hours leave the company while open', async () => {
    serve({ settings: settingsList({ scheduleType: 'company' }) });
    const { socket, serverEmit } = fakeSocket();
    renderPage('/settings?tab=schedules', socket);
    expect(await screen.findByRole('group', { name: 'Domingo' })).toBeTruthy();
    serverEmit('company-1-settings', {
      action: 'update',
      setting: { key: 'scheduleType', value: 'queue' },
    });
    expect(await screen.findByRole('tab', { name: 'Opções', selected: true })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Domingo' })).toBeNull();
  });
});

describe('SettingsPage, Horários', () => {
  const day = (name: string) => within(screen.getByRole('group', { name }));

  it('shows the company hours, masks typed times and saves the week', async () => {
    const calls = serve({
      settings: settingsList({ scheduleType: 'company' }),
      extra: (call) =>
        call.method === 'PUT' && call.url.pathname === '/companies/1/schedules'
          ? json(
              200,
              companyRecord(1, {
                schedules: (call.body as { schedules: CompanySchedule[] }).schedules,
              }),
            )
          : undefined,
    });
    renderPage('/settings?tab=schedules');
    await screen.findByRole('group', { name: 'Sábado' });
    expect((day('Segunda-feira').getByLabelText('Início') as HTMLInputElement).value).toBe('08:00');
    expect((day('Sábado').getByLabelText('Fim') as HTMLInputElement).value).toBe('12:00');
    expect(day('Domingo').getByText('(Fechado)')).toBeTruthy();

    const saturdayEnd = day('Sábado').getByLabelText('Fim') as HTMLInputElement;
    fireEvent.change(saturdayEnd, { target: { value: '1330' } });
    expect(saturdayEnd.value).toBe('13:30');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar horários' }));
    expect(await screen.findByText('Horários atualizados com sucesso.')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.url.pathname).toBe('/companies/1/schedules');
    expect(put.body).toEqual({
      schedules: DEFAULT_SCHEDULES.map((entry) =>
        entry.weekdayEn === 'saturday' ? { ...entry, endTime: '13:30' } : entry,
      ),
    });
  });

  it('marks a time that is not HH:MM and an end before the start, and sends nothing', async () => {
    const calls = serve({ settings: settingsList({ scheduleType: 'company' }) });
    renderPage('/settings?tab=schedules');
    await screen.findByRole('group', { name: 'Terça-feira' });
    const mondayStart = day('Segunda-feira').getByLabelText('Início') as HTMLInputElement;
    fireEvent.change(mondayStart, { target: { value: '99' } });
    fireEvent.blur(mondayStart);
    expect(await day('Segunda-feira').findByText('Hora inválida (HH:MM)')).toBeTruthy();
    expect(mondayStart.getAttribute('aria-invalid')).toBe('true');

    const tuesdayEnd = day('Terça-feira').getByLabelText('Fim') as HTMLInputElement;
    fireEvent.change(tuesdayEnd, { target: { value: '07:00' } });
    fireEvent.blur(tuesdayEnd);
    expect(await day('Terça-feira').findByText('O fim deve ser depois do início')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Salvar horários' }));
    await waitFor(() => expect(mondayStart).toBe(document.activeElement));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    // correcting the start clears the message of its end too
    const tuesdayStart = day('Terça-feira').getByLabelText('Início') as HTMLInputElement;
    fireEvent.change(tuesdayStart, { target: { value: '0600' } });
    await waitFor(() =>
      expect(day('Terça-feira').queryByText('O fim deve ser depois do início')).toBeNull(),
    );
  });

  it("follows another admin's save of the hours on company-{id}-company", async () => {
    serve({ settings: settingsList({ scheduleType: 'company' }) });
    const { socket, serverEmit } = fakeSocket();
    renderPage('/settings?tab=schedules', socket);
    await screen.findByRole('group', { name: 'Sexta-feira' });
    serverEmit('company-1-company', {
      action: 'update',
      company: companyRecord(1, {
        schedules: DEFAULT_SCHEDULES.map((entry) =>
          entry.weekdayEn === 'friday' ? { ...entry, endTime: '17:00' } : entry,
        ),
      }),
    });
    await waitFor(() =>
      expect((day('Sexta-feira').getByLabelText('Fim') as HTMLInputElement).value).toBe('17:00'),
    );
  });
});
