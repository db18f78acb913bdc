import type { Connection, SessionUser } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { type Call, json, stubFetch } from '../../../test/fetch';
import {
  connectionRecord,
  integrationRecord,
  promptRecord,
  queueRecord,
} from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { ConnectionDialog } from './ConnectionDialog';

const withPlan = sessionUser({
  id: 1,
  profile: 'admin',
  company: { plan: { useOpenAi: true, useIntegrations: true } as never },
});
const withoutPlan = sessionUser({ id: 1, profile: 'admin' });

const SIMULADOR = connectionRecord(3, 'Simulador', 'CONNECTED', {
  provider: 'simulator',
  promptId: 4,
});

/** The company's queues, prompts and integrations; a save answered as the server does. */
function serve(user: SessionUser, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/queue') return json(200, [queueRecord(1, 'Suporte', '#2196f3')]);
    if (pathname === '/prompt' && call.method === 'GET') {
      return json(200, {
        prompts: [promptRecord(4, 'Assistente da loja'), promptRecord(5, 'Assistente de vendas')],
        count: 2,
        hasMore: false,
      });
    }
    if (pathname === '/queueIntegration' && call.method === 'GET') {
      return json(200, {
        queueIntegrations: [integrationRecord(8, 'CRM', 'webhook')],
        count: 1,
        hasMore: false,
      });
    }
    if (pathname === '/whatsapp' && call.method === 'POST') {
      return json(201, connectionRecord(10, 'Atendimento IA', 'OPENING', call.body as never));
    }
    if (pathname === '/whatsapp/3' && call.method === 'PUT') {
      return json(200, { ...SIMULADOR, ...(call.body as Partial<Connection>) });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderDialog(connection?: Connection) {
  const onClose = vi.fn();
  renderWithApp(
    <RequireSession>
      <ConnectionDialog open onClose={onClose} connection={connection} />
    </RequireSession>,
    { route: '/connections' },
  );
  return { onClose };
}

/** Chooses `option` in a select of the dialog, and waits for its list to close. */
async function choose(dialog: HTMLElement, name: string, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConnectionDialog: integration and prompt', { timeout: 20_000 }, () => {
  it('adds a connection answered by a prompt and a bot integration', async () => {
    const calls = serve(withPlan);
    const { onClose } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar WhatsApp' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), {
      target: { value: 'Atendimento IA' },
    });
    // what each choice does is said under it
    expect(
      within(dialog).getByText('A IA responde as conversas desta conexão antes de qualquer fila'),
    ).toBeTruthy();

    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Prompt' }));
    const listbox = await screen.findByRole('listbox');
    await within(listbox).findByRole('option', { name: 'Assistente da loja' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Nenhum', 'Assistente da loja', 'Assistente de vendas']);
    fireEvent.click(within(listbox).getByRole('option', { name: 'Assistente de vendas' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await choose(dialog, 'Integração', 'CRM');
    expect(within(dialog).getByRole('combobox', { name: 'Prompt' }).textContent).toBe(
      'Assistente de vendas',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Integração' }).textContent).toBe('CRM');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Conexão salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Atendimento IA',
      promptId: 5,
      integrationId: 8,
    });
    expect(onClose).toHaveBeenCalled();
  });

  it("shows a connection's prompt, takes it off, and places a refused id on its field", async () => {
    const calls = serve(withPlan, (call) =>
      call.method === 'PUT' && (call.body as Connection).integrationId === 8
        ? json(400, {
            error: 'ERR_VALIDATION',
            fields: [{ path: 'body.integrationId', message: 'Unknown integration' }],
          })
        : undefined,
    );
    const { onClose } = renderDialog(SIMULADOR);
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    const prompt = within(dialog).getByRole('combobox', { name: 'Prompt' });
    await waitFor(() => expect(prompt.textContent).toBe('Assistente da loja'));

    await choose(dialog, 'Prompt', 'Nenhum');
    await choose(dialog, 'Integração', 'CRM');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Esta integração não existe mais')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    await choose(dialog, 'Integração', 'Nenhuma');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Conexão salva com sucesso!')).toBeTruthy();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect(puts[1]?.body).toMatchObject({ promptId: null, integrationId: null });
    expect(onClose).toHaveBeenCalled();
  });

  it("without the plan's flags: nothing to choose, nothing asked, the stored prompt kept", async () => {
    const calls = serve(withoutPlan);
    renderDialog(SIMULADOR);
    const dialog = await screen.findByRole('dialog', { name: 'Editar WhatsApp' });
    expect(
      within(dialog).getByRole('combobox', { name: 'Prompt' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(
      within(dialog).getByRole('combobox', { name: 'Integração' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(within(dialog).getAllByText('Nenhum prompt cadastrado').length).toBeGreaterThan(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Conexão salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      promptId: 4,
      integrationId: null,
    });
    expect(calls.some((call) => call.url.pathname.startsWith('/prompt'))).toBe(false);
    expect(calls.some((call) => call.url.pathname.startsWith('/queueIntegration'))).toBe(false);
  });
});
