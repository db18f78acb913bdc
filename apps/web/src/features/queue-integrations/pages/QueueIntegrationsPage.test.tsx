import type { QueueIntegration, SessionUser } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireAccess, RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { toast } from '../../../app/toast';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { integrationRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { QueueIntegrationsPage } from './QueueIntegrationsPage';

/** An integration as the list answers it, with an n8n address unless `extra` says otherwise. */
const record = (
  id: number,
  name: string,
  type: QueueIntegration['type'],
  extra: Partial<QueueIntegration> = {},
): QueueIntegration =>
  integrationRecord(id, name, type, { urlN8N: 'https://hooks.example.com/x', ...extra });

function serve(user: SessionUser, extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname } = call.url;
    if (pathname === '/auth/me') return json(200, user);
    if (pathname === '/queueIntegration' && call.method === 'GET') {
      return json(200, {
        queueIntegrations: [
          record(1, 'CRM', 'webhook', { secret: '••••abcd' }),
          record(2, 'Robô', 'typebot', { typebotSlug: 'robo' }),
        ],
        count: 2,
        hasMore: false,
      });
    }
    if (pathname === '/queueIntegration/1/deliveries') {
      return json(200, {
        deliveries: [
          {
            id: 5,
            event: 'message.received',
            status: 'failed',
            attempts: 6,
            responseStatus: 500,
            errorCode: 'ERR_INTEGRATION_HTTP_STATUS',
            lastError: 'HTTP 500',
            createdAt: '2025-01-01T10:00:00.000Z',
            updatedAt: '2025-01-01T10:05:00.000Z',
            deliveredAt: null,
          },
        ],
        hasMore: false,
      });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage() {
  return renderWithApp(
    <RequireSession>
      <Routes>
        <Route path="/" element={<p>home</p>} />
        <Route
          path="/queue-integration"
          element={
            <RequireAccess permission="integrations:use">
              <QueueIntegrationsPage />
            </RequireAccess>
          }
        />
      </Routes>
    </RequireSession>,
    { route: '/queue-integration' },
  );
}

const admin = sessionUser({
  profile: 'admin',
  company: { plan: { useIntegrations: true } } as never,
});

beforeAll(async () => {
  await i18n.loadNamespaces(['queueIntegrations']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
  toast.clear();
});

describe('QueueIntegrationsPage', () => {
  it('lists type, id and name, and shows a webhook delivery log', async () => {
    serve(admin);
    renderPage();
    const row = (await screen.findByText('CRM', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(row).getByLabelText('WebHooks')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
    const typebotRow = screen.getByText('Robô').closest('tr')!;
    expect(within(typebotRow).getByLabelText('Typebot')).toBeTruthy();
    // only webhook and n8n have deliveries
    expect(within(typebotRow).queryByRole('button', { name: 'Entregas de Robô' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Entregas de CRM' }));
    const log = await screen.findByRole('dialog', { name: 'Entregas de CRM' });
    expect(await within(log).findByText('message.received')).toBeTruthy();
    expect(within(log).getByText('Falhou')).toBeTruthy();
    expect(
      within(log).getByText('O serviço teve um erro interno (HTTP 500).', { exact: false }),
    ).toBeTruthy();
    expect(within(log).getByText('Detalhe técnico: HTTP 500')).toBeTruthy();
  });

  it('shows the fields of the chosen type, tries the bot and saves', async () => {
    const calls = serve(admin, (call) => {
      if (call.url.pathname === '/queueIntegration/testSession') {
        return json(200, { ok: true, messages: ['Olá! Bem-vindo.', '1 - Vendas'] });
      }
      if (call.method === 'POST' && call.url.pathname === '/queueIntegration') {
        return json(200, record(9, 'Bot novo', 'typebot'));
      }
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar Integração' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Integração' });
    // typebot is the first type shown
    expect(within(dialog).getByLabelText('Typebot - Slug')).toBeTruthy();
    expect(within(dialog).queryByLabelText('JsonContent')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Bot novo' } });
    fireEvent.change(within(dialog).getByLabelText('URL do Typebot'), {
      target: { value: 'https://typebot.example.com' },
    });
    fireEvent.change(within(dialog).getByLabelText('Typebot - Slug'), {
      target: { value: 'robo' },
    });
    fireEvent.change(within(dialog).getByLabelText('Palavra para finalizar o ticket'), {
      target: { value: 'sair' },
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Testar Bot' }));
    const answer = await within(dialog).findByRole('status');
    expect(within(answer).getByText('A integração respondeu')).toBeTruthy();
    expect(within(answer).getByText('Olá! Bem-vindo.')).toBeTruthy();
    expect(
      calls.find((call) => call.url.pathname === '/queueIntegration/testSession')?.body,
    ).toMatchObject({
      type: 'typebot',
      name: 'Bot novo',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'robo',
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Integração salva com sucesso.')).toBeTruthy();
    expect(
      calls.find((call) => call.method === 'POST' && call.url.pathname === '/queueIntegration')
        ?.body,
    ).toMatchObject({
      type: 'typebot',
      name: 'Bot novo',
      typebotSlug: 'robo',
      typebotKeywordFinish: 'sair',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("words a failed test for the admin from the server's code", async () => {
    serve(admin, (call) =>
      call.url.pathname === '/queueIntegration/testSession'
        ? json(200, { ok: false, messages: [], error: 'ERR_INTEGRATION_ADDRESS_REFUSED' })
        : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar Integração' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Integração' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Bot' } });
    fireEvent.change(within(dialog).getByLabelText('URL do Typebot'), {
      target: { value: 'http://10.0.0.5' },
    });
    fireEvent.change(within(dialog).getByLabelText('Typebot - Slug'), {
      target: { value: 'robo' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Testar Bot' }));
    const answer = await within(dialog).findByRole('status');
    expect(within(answer).getByText('A integração não respondeu')).toBeTruthy();
    expect(
      within(answer).getByText(
        'Este endereço não pode ser usado: ele aponta para uma rede interna ou traz usuário e senha. Informe um endereço público (http ou https).',
      ),
    ).toBeTruthy();
    expect(within(answer).queryByText(/ERR_|refused|private/)).toBeNull();
  });

  it('refuses a name of one letter before sending', async () => {
    const calls = serve(admin);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar Integração' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar Integração' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Nome').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("sends a company whose plan lacks useIntegrations home with the spec's toast", async () => {
    serve(sessionUser({ profile: 'admin' }));
    renderPage();
    expect(
      await screen.findByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('home', {}, { timeout: 3000 })).toBeTruthy();
  });
});
