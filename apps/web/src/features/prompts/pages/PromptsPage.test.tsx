import { PROMPT_MSG } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { json, stubFetch } from '../../../test/fetch';
import { promptRecord, queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { PromptsPage } from './PromptsPage';

const admin = sessionUser({
  id: 1,
  profile: 'admin',
  company: { plan: { useOpenAi: true } as never },
});

const renderPage = () =>
  renderWithApp(
    <RequireSession>
      <PromptsPage />
    </RequireSession>,
    { route: '/prompts' },
  );

beforeAll(async () => {
  await i18n.loadNamespaces(['prompts']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PromptsPage', () => {
  it("shows each prompt's health: answering, or its provider's last failure", async () => {
    stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, admin);
      if (call.url.pathname === '/prompt') {
        return json(200, {
          prompts: [
            promptRecord(1, 'Loja'),
            promptRecord(2, 'Vendas', {
              apiKey: null,
              lastError: 'keyRefused',
              lastErrorAt: '2025-01-02T03:04:00.000Z',
            }),
          ],
          count: 2,
          hasMore: false,
        });
      }
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    renderPage();
    const loja = (await screen.findByText('Loja', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(loja).getByText('Respondendo')).toBeTruthy();
    const vendas = screen.getByText('Vendas').closest('tr')!;
    const failed = within(vendas).getByText('Chave recusada');
    // when, on the company's clock (São Paulo)
    expect(failed.closest('[title]')?.getAttribute('title')).toBe(
      'Última falha em 02/01/2025 00:04',
    );
  });

  it('says under the key that the provider asks for one when the save is refused for it', async () => {
    stubFetch((call) => {
      if (call.url.pathname === '/auth/me') return json(200, admin);
      if (call.url.pathname === '/prompt' && call.method === 'GET') {
        return json(200, { prompts: [], count: 0, hasMore: false });
      }
      if (call.url.pathname === '/queue') return json(200, [queueRecord(1, 'Suporte', '#2196f3')]);
      if (call.url.pathname === '/prompt' && call.method === 'POST') {
        return json(400, {
          error: 'ERR_VALIDATION',
          fields: [{ path: 'body.apiKey', message: PROMPT_MSG.keyMissing }],
        });
      }
      return json(404, { error: 'ERR_NOT_FOUND' });
    });
    renderPage();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Adicionar Prompt' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Loja' } });
    fireEvent.change(within(dialog).getByLabelText('Prompt'), {
      target: { value: 'Você atende a loja.' },
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Setor/Fila' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(
      () =>
        expect(
          within(dialog).getByText('Informe a chave da API: o provedor de IA pede uma'),
        ).toBeTruthy(),
      { timeout: 5000 },
    );
  });
});
