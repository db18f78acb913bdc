import type { QuickMessage } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { QuickMessagesPage } from './QuickMessagesPage';

const XSS = '<img src=x onerror=alert(1)>';
const record = (
  id: number,
  shortcode: string,
  extra: Partial<QuickMessage> = {},
): QuickMessage => ({
  id,
  shortcode,
  message: `Olá {{contactFirstName}}, mensagem ${id}`,
  mediaPath: null,
  mediaName: null,
  isMedia: false,
  geral: false,
  queueId: null,
  userId: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

function serve(extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, sessionUser({ id: 1 }));
    if (pathname === '/quick-messages' && call.method === 'GET') {
      if (searchParams.get('searchParam')) {
        return json(200, { records: [record(9, 'pix')], count: 1, hasMore: false });
      }
      return searchParams.get('pageNumber') === '2'
        ? json(200, { records: [record(3, XSS, { message: XSS })], count: 3, hasMore: false })
        : json(200, {
            records: [
              record(1, 'bomdia', { geral: true }),
              record(2, 'catalogo', {
                mediaName: 'catalogo.pdf',
                isMedia: true,
                mediaPath: '/m/x',
              }),
            ],
            count: 3,
            hasMore: true,
          });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage() {
  return renderWithApp(
    <RequireSession>
      <QuickMessagesPage />
    </RequireSession>,
    { route: '/quick-messages' },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['quick-messages']);
});

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('QuickMessagesPage', () => {
  it('lists shortcodes with their text, file or "Sem anexo", and shared flag', async () => {
    const calls = serve();
    const { container } = renderPage();
    const table = await screen.findByRole('table', { name: 'Respostas rápidas' });
    expect(await within(table).findByText(`/${XSS}`)).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    const catalogo = within(table).getByText('/catalogo').closest('tr')!;
    expect(within(catalogo).getAllByText('catalogo.pdf').length).toBeGreaterThan(0);
    const bomdia = within(table).getByText('/bomdia').closest('tr')!;
    expect(within(bomdia).getAllByText('Sem anexo').length).toBeGreaterThan(0);
    expect(within(bomdia).getByText('Sim')).toBeTruthy();
    expect(
      calls
        .filter((call) => call.url.pathname === '/quick-messages')
        .map((call) => call.url.searchParams.get('pageNumber')),
    ).toEqual(['1', '2']);
  });

  it('searches once the typing pauses', async () => {
    const calls = serve();
    renderPage();
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Pesquisar' }), {
      target: { value: 'PIX' },
    });
    expect(await screen.findByText('/pix', {}, { timeout: 2000 })).toBeTruthy();
    expect(calls.map((call) => call.url.searchParams.get('searchParam')).filter(Boolean)).toEqual([
      'pix',
    ]);
  });

  it('requires a shortcode, inserts variables and uploads the file after saving', async () => {
    const calls = serve((call) => {
      if (call.method === 'POST' && call.url.pathname === '/quick-messages') {
        return json(201, record(20, 'boleto', { message: 'Segue {{contactName}}' }));
      }
      if (call.method === 'POST' && call.url.pathname === '/quick-messages/20/media-upload') {
        return json(
          200,
          record(20, 'boleto', { message: 'Segue {{contactName}}', mediaName: 'boleto.pdf' }),
        );
      }
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar resposta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar resposta rápida' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: 'boleto' } });
    const message = within(dialog).getByLabelText('Mensagem') as HTMLTextAreaElement;
    fireEvent.change(message, { target: { value: 'Segue ' } });
    message.setSelectionRange(6, 6);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Inserir nome do contato' }));
    expect(message.value).toBe('Segue {{contactName}}');

    const file = new File(['%PDF-1.4'], 'boleto.pdf', { type: 'application/pdf' });
    fireEvent.change(within(dialog).getByLabelText('Arquivo da resposta rápida'), {
      target: { files: [file] },
    });
    expect(within(dialog).getByText('boleto.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Resposta rápida salva com sucesso!')).toBeTruthy();
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.url.pathname)).toEqual([
      '/quick-messages',
      '/quick-messages/20/media-upload',
    ]);
    expect(posts[0]?.body).toEqual({
      shortcode: 'boleto',
      message: 'Segue {{contactName}}',
      geral: false,
    });
    const form = posts[1]?.body as FormData;
    expect(form.get('typeArch')).toBe('quickMessage');
    expect((form.get('file') as File).name).toBe('boleto.pdf');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = screen.getByText('/boleto').closest('tr')!;
    expect(within(row).getAllByText('boleto.pdf').length).toBeGreaterThan(0);
  });

  it("lets an admin share a reply with one queue's agents, and shows each reply's queue", async () => {
    const calls = serve((call) => {
      const { pathname } = call.url;
      if (pathname === '/auth/me') return json(200, sessionUser({ id: 1, profile: 'admin' }));
      if (pathname === '/queue') {
        return json(200, [queueRecord(5, 'Vendas', '#0a0'), queueRecord(6, 'Suporte', '#00a')]);
      }
      if (call.method === 'GET' && pathname === '/quick-messages') {
        return json(200, {
          records: [record(1, 'tabela', { queueId: 5 }), record(2, 'oi')],
          count: 2,
          hasMore: false,
        });
      }
      if (call.method === 'POST' && pathname === '/quick-messages') {
        return json(201, record(20, 'garantia', { queueId: 6 }));
      }
      return undefined;
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Respostas rápidas' });
    const tabela = (await within(table).findByText('/tabela')).closest('tr')!;
    expect(await within(tabela).findByText('Vendas')).toBeTruthy();
    expect(within(within(table).getByText('/oi').closest('tr')!).getByText('—')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Adicionar resposta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar resposta rápida' });
    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: 'garantia' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Fila'));
    fireEvent.click(await screen.findByRole('option', { name: 'Suporte' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('Resposta rápida salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      shortcode: 'garantia',
      message: '',
      geral: false,
      queueId: 6,
    });
  });

  it('says under the shortcode that it is taken, and keeps the dialog open', async () => {
    const calls = serve((call) =>
      call.method === 'POST' ? json(409, { error: 'ERR_DUPLICATED_SHORTCODE' }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar resposta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar resposta rápida' });
    const shortcode = within(dialog).getByLabelText('Atalho');
    fireEvent.change(shortcode, { target: { value: 'bomdia' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    const taken = 'Já existe uma resposta rápida com este atalho.';
    await waitFor(() => expect(shortcode.getAttribute('aria-invalid')).toBe('true'));
    expect(shortcode.getAttribute('aria-describedby')).toBeTruthy();
    const helper = document.getElementById(shortcode.getAttribute('aria-describedby')!);
    expect(helper?.textContent).toBe(taken);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
    // said on the field, not as a toast, and the dialog stays for a new shortcode
    expect(screen.getAllByText(taken)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Adicionar resposta rápida' })).toBeTruthy();
  });

  it('removes an attachment through media-upload when saving', async () => {
    const calls = serve((call) => {
      if (call.method === 'PUT')
        return json(200, record(2, 'catalogo', { mediaName: 'catalogo.pdf' }));
      if (call.method === 'DELETE') return json(200, record(2, 'catalogo'));
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar /catalogo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar resposta rápida' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remover anexo catalogo.pdf' }));
    expect(within(dialog).getByRole('button', { name: 'Anexar arquivo' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Resposta rápida salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe(
      '/quick-messages/2/media-upload',
    );
    const row = screen.getByText('/catalogo').closest('tr')!;
    expect(within(row).getAllByText('Sem anexo').length).toBeGreaterThan(0);
  });

  it('deletes after confirmation', async () => {
    const calls = serve((call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir /bomdia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir /bomdia?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Resposta rápida excluída com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/quick-messages/1');
    await waitFor(() => expect(screen.queryByText('/bomdia')).toBeNull());
  });
});
