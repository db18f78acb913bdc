import type { FileListRecord } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { renderWithApp, sessionUser } from '../../../test/render';
import { FilesPage } from './FilesPage';

const XSS = '<img src=x onerror=alert(1)>';
const record = (id: number, name: string, extra: Partial<FileListRecord> = {}): FileListRecord => ({
  id,
  name,
  message: `Mensagem ${id}`,
  options: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});
const option = (id: number, name: string, mediaName: string | null = null) => ({
  id,
  name,
  path: mediaName ? `/media/1/${id}.pdf?x` : null,
  mediaType: mediaName ? 'application/pdf' : null,
  mediaName,
});

function serve(extra?: (call: Call) => Response | undefined) {
  return stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, sessionUser({ id: 1, profile: 'admin' }));
    if (pathname === '/files' && call.method === 'GET') {
      if (searchParams.get('searchParam')) {
        return json(200, { files: [record(9, 'Contratos')], count: 1, hasMore: false });
      }
      return searchParams.get('pageNumber') === '2'
        ? json(200, { files: [record(3, XSS)], count: 3, hasMore: false })
        : json(200, {
            files: [
              record(1, 'Catálogo', {
                options: [option(11, 'Tabela', 'tabela.pdf'), option(12, 'Foto')],
              }),
              record(2, 'Boletos'),
            ],
            count: 3,
            hasMore: true,
          });
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
}

function renderPage(route = '/files') {
  return renderWithApp(
    <RequireSession>
      <FilesPage />
    </RequireSession>,
    { route },
  );
}

beforeAll(async () => {
  await i18n.loadNamespaces(['files']);
});
beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FilesPage', () => {
  it('lists the lists with their number of files, as text, page after page', async () => {
    const calls = serve();
    const { container } = renderPage();
    const table = await screen.findByRole('table', { name: 'Listas de arquivos' });
    const catalogo = (await within(table).findByText('Catálogo')).closest('tr')!;
    expect(within(catalogo).getByText('2')).toBeTruthy();
    expect(await within(table).findByText(XSS)).toBeTruthy();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(
      calls
        .filter((call) => call.url.pathname === '/files')
        .map((call) => call.url.searchParams.get('pageNumber')),
    ).toEqual(['1', '2']);
  });

  it("refuses a short name ('nome muito curto') and no message, then saves two options and uploads their files", async () => {
    const saved = record(20, 'Catálogo novo', {
      message: 'Segue',
      options: [option(31, 'Tabela'), option(32, 'Foto')],
    });
    const calls = serve((call) => {
      if (call.method === 'POST' && call.url.pathname === '/files') return json(201, saved);
      if (call.method === 'POST' && call.url.pathname === '/files/uploadList/20') {
        return json(200, {
          ...saved,
          options: [option(31, 'Tabela', 'tabela.pdf'), option(32, 'Foto', 'foto.png')],
        });
      }
      return undefined;
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova lista de arquivos' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(dialog).findByText('nome muito curto')).toBeTruthy();
    expect(within(dialog).getByText('Obrigatório')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Catálogo novo' } });
    fireEvent.change(within(dialog).getByLabelText('Mensagem'), { target: { value: 'Segue' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar arquivo' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar arquivo' }));
    const first = within(dialog).getByRole('group', { name: 'Arquivo 1' });
    const second = within(dialog).getByRole('group', { name: 'Arquivo 2' });
    // An option needs its name.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await within(first).findByText('Obrigatório')).toBeTruthy();

    fireEvent.change(within(first).getByLabelText('Nome do arquivo'), {
      target: { value: 'Tabela' },
    });
    fireEvent.change(within(second).getByLabelText('Nome do arquivo'), {
      target: { value: 'Foto' },
    });
    const pdf = new File(['%PDF-1.4'], 'tabela.pdf', { type: 'application/pdf' });
    const png = new File(['png'], 'foto.png', { type: 'image/png' });
    fireEvent.change(within(first).getByLabelText('Arquivo 1 a enviar'), {
      target: { files: [pdf] },
    });
    fireEvent.change(within(second).getByLabelText('Arquivo 2 a enviar'), {
      target: { files: [png] },
    });
    expect(within(first).getByText('tabela.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Lista de arquivos salva com sucesso!')).toBeTruthy();
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.url.pathname)).toEqual(['/files', '/files/uploadList/20']);
    expect(posts[0]?.body).toEqual({
      name: 'Catálogo novo',
      message: 'Segue',
      options: [{ name: 'Tabela' }, { name: 'Foto' }],
    });
    const form = posts[1]?.body as FormData;
    expect(form.get('fileId')).toBe('20');
    expect(form.get('typeArch')).toBe('fileList');
    expect((form.getAll('files') as File[]).map((file) => file.name)).toEqual([
      'tabela.pdf',
      'foto.png',
    ]);
    expect(form.getAll('id')).toEqual(['31', '32']);
    expect(form.getAll('name')).toEqual(['Tabela', 'Foto']);
    expect(form.getAll('mediaType')).toEqual(['application/pdf', 'image/png']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('edits a list: keeps its options by id, removes one, uploads only what was chosen', async () => {
    const calls = serve((call) =>
      call.method === 'PUT'
        ? json(200, record(1, 'Catálogo', { options: [option(11, 'Tabela', 'tabela.pdf')] }))
        : undefined,
    );
    renderPage('/files-backup');
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Catálogo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar lista de arquivos' });
    expect(within(dialog).getByText('tabela.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remover o arquivo 2' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Lista de arquivos salva com sucesso!')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.url.pathname).toBe('/files/1');
    expect(put?.body).toEqual({
      name: 'Catálogo',
      message: 'Mensagem 1',
      options: [{ id: 11, name: 'Tabela' }],
    });
    expect(calls.some((call) => call.url.pathname.startsWith('/files/uploadList'))).toBe(false);
  });

  it('deletes after confirmation', async () => {
    const calls = serve((call) =>
      call.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir Boletos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir Boletos?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Lista de arquivos excluída com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.url.pathname).toBe('/files/2');
    await waitFor(() => expect(screen.queryByText('Boletos')).toBeNull());
  });
});
