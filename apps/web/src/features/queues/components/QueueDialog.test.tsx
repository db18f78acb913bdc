import type { Queue, SessionUser } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { integrationRecord, promptRecord, queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { freeQueueColor, QueueDialog } from './QueueDialog';

const withPlan = sessionUser({
  id: 1,
  profile: 'admin',
  company: { plan: { useOpenAi: true, useIntegrations: true } as never },
});
const withoutPlan = sessionUser({ id: 1, profile: 'admin' });

const SUPORTE: Queue = { ...queueRecord(1, 'Suporte', '#2196f3'), integrationId: 7 };

/** The company's prompts and integrations, and a queue update answered as the server does. */
function serve(user: SessionUser, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/prompt' && call.method === 'GET') {
      return json(200, {
        prompts: [promptRecord(4, 'Assistente da loja'), promptRecord(5, 'Assistente de vendas')],
        count: 2,
        hasMore: false,
      });
    }
    if (pathname === '/queueIntegration' && call.method === 'GET') {
      return json(200, {
        queueIntegrations: [
          integrationRecord(7, 'Robô de boas-vindas', 'typebot'),
          integrationRecord(8, 'CRM', 'webhook'),
        ],
        count: 2,
        hasMore: false,
      });
    }
    if (pathname === '/queue-options') return json(200, []);
    if (pathname === '/queue/1' && call.method === 'PUT') {
      return json(200, { ...SUPORTE, ...(call.body as Partial<Queue>) });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderDialog(queue: Queue = SUPORTE) {
  const onClose = vi.fn();
  renderWithApp(
    <RequireSession>
      <QueueDialog open onClose={onClose} queue={queue} />
    </RequireSession>,
    { route: '/queues' },
  );
  return { onClose };
}

/** Opens a select of the dialog and answers its choices' names. */
async function choicesOf(dialog: HTMLElement, name: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name }));
  const listbox = await screen.findByRole('listbox');
  await within(listbox).findAllByRole('option');
  return within(listbox)
    .getAllByRole('option')
    .map((option) => option.textContent);
}

/** Chooses `option` in a select of the dialog, and waits for its list to close. */
async function choose(dialog: HTMLElement, name: string, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

beforeAll(async () => {
  await i18n.loadNamespaces(['queues']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('QueueDialog: integration and prompt', { timeout: 20_000 }, () => {
  it("picks the queue's integration and prompt from the company's and saves both ids", async () => {
    const calls = serve(withPlan);
    const { onClose } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Editar fila' });

    // the stored integration is shown chosen
    const integration = within(dialog).getByRole('combobox', { name: 'Integração' });
    await waitFor(() => expect(integration.textContent).toBe('Robô de boas-vindas'));
    expect(within(dialog).getByRole('combobox', { name: 'Prompt' }).textContent).not.toContain(
      'Assistente',
    );

    expect(await choicesOf(dialog, 'Prompt')).toEqual([
      'Nenhum',
      'Assistente da loja',
      'Assistente de vendas',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Assistente de vendas' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(within(dialog).getByRole('combobox', { name: 'Prompt' }).textContent).toBe(
      'Assistente de vendas',
    );

    expect(await choicesOf(dialog, 'Integração')).toEqual([
      'Nenhuma',
      'Robô de boas-vindas',
      'CRM',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'CRM' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());

    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Fila salva com sucesso!')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.url.pathname).toBe('/queue/1');
    expect(put?.body).toMatchObject({ name: 'Suporte', integrationId: 8, promptId: 5 });
    expect(onClose).toHaveBeenCalled();
  });

  it('clears a choice with the none option, and shows an id the server refuses on its field', async () => {
    const calls = serve(withPlan, (call) =>
      call.method === 'PUT' && (call.body as Queue).promptId === 4
        ? json(400, {
            error: 'ERR_VALIDATION',
            fields: [{ path: 'body.promptId', message: 'Unknown prompt' }],
          })
        : undefined,
    );
    const { onClose } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Editar fila' });
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Integração' }).textContent).toBe(
        'Robô de boas-vindas',
      ),
    );
    await choose(dialog, 'Integração', 'Nenhuma');
    // deleted by another admin since the list was read
    await choose(dialog, 'Prompt', 'Assistente da loja');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    expect(await within(dialog).findByText('Este prompt não existe mais')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      integrationId: null,
      promptId: 4,
    });
  });

  it("without the plan's flags: nothing to choose, nothing asked, the stored ids kept", async () => {
    const calls = serve(withoutPlan);
    renderDialog({ ...SUPORTE, promptId: 4 });
    const dialog = await screen.findByRole('dialog', { name: 'Editar fila' });
    const integration = within(dialog).getByRole('combobox', { name: 'Integração' });
    const prompt = within(dialog).getByRole('combobox', { name: 'Prompt' });
    expect(integration.getAttribute('aria-disabled')).toBe('true');
    expect(prompt.getAttribute('aria-disabled')).toBe('true');
    expect(within(dialog).getAllByText('Nenhuma integração cadastrada').length).toBeGreaterThan(0);
    expect(within(dialog).getAllByText('Nenhum prompt cadastrado').length).toBeGreaterThan(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Fila salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      integrationId: 7,
      promptId: 4,
    });
    expect(calls.some((call) => call.url.pathname.startsWith('/queueIntegration'))).toBe(false);
    expect(calls.some((call) => call.url.pathname.startsWith('/prompt'))).toBe(false);
  });
});

describe('freeQueueColor', () => {
  it('offers a colour none of the taken ones is, in any case, even past its first choices', () => {
    const taken: string[] = [];
    for (let count = 0; count < 40; count += 1) {
      const offered = freeQueueColor(taken);
      expect(offered).toMatch(/^#[0-9a-f]{6}$/);
      expect(taken.map((color) => color.toLowerCase())).not.toContain(offered);
      taken.push(count % 2 ? offered.toUpperCase() : offered);
    }
  });
});
