import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { json, stubFetch } from '../../../test/fetch';
import { fakeMedia } from '../../../test/layout';
import { renderWithApp, sessionUser } from '../../../test/render';
import { messageRow } from '../../tickets/tickets.fixtures';
import { MessageInput, quickLabel } from './MessageInput';

const quick = (id: number, shortcode: string, message: string) => ({
  id,
  shortcode,
  message,
  mediaPath: null,
  mediaName: null,
  isMedia: false,
  geral: true,
  userId: null,
  queueId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

function setup() {
  const calls = stubFetch((call) => {
    if (call.url.pathname === '/auth/me') return json(200, sessionUser());
    if (call.url.pathname === '/quick-messages/list') {
      return json(200, [
        quick(1, 'bomdia', 'Bom dia! Em que posso ajudar você hoje com o seu pedido?'),
        quick(2, 'boleto', 'Segue o boleto.'),
        quick(3, 'pix', 'Nossa chave pix é o CNPJ.'),
        {
          ...quick(4, 'catalogo', 'Nosso catálogo'),
          mediaPath: '/media/q4?sig=1',
          mediaName: 'catalogo.pdf',
          isMedia: true,
        },
      ]);
    }
    if (call.url.pathname === '/media/q4') {
      return new Response('%PDF-1.4', { headers: { 'content-type': 'application/pdf' } });
    }
    if (call.url.pathname === '/messages/7' && call.method === 'POST') {
      return json(201, messageRow(50, { ticketId: 7, body: 'x' }));
    }
    return json(404, {});
  });
  const sent = vi.fn();
  renderWithApp(
    <RequireSession>
      <MessageInput
        ticketId={7}
        disabled={false}
        replyingTo={null}
        onCancelReply={() => {}}
        onSent={sent}
      />
    </RequireSession>,
  );
  return { calls, sent };
}

beforeEach(() => {
  localStorage.setItem('token', JSON.stringify('token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MessageInput', () => {
  it('opens the quick replies from "/" and inserts the chosen text', async () => {
    setup();
    const input = await screen.findByRole('textbox', { name: 'Mensagem' });
    fireEvent.change(input, { target: { value: '/' } });
    expect(screen.queryByRole('listbox', { name: 'Respostas rápidas' })).toBeNull();

    fireEvent.change(input, { target: { value: '/bo' } });
    const popup = await screen.findByRole('listbox', { name: 'Respostas rápidas' });
    const options = within(popup).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'bomdia - Bom dia! Em que posso ajud…',
      'boleto - Segue o boleto.',
    ]);
    fireEvent.click(options[1]!);
    expect((input as HTMLTextAreaElement).value).toBe('Segue o boleto.');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('brings the file of a quick reply along', async () => {
    const { calls } = setup();
    const input = await screen.findByRole('textbox', { name: 'Mensagem' });
    fireEvent.change(input, { target: { value: '/cat' } });
    const popup = await screen.findByRole('listbox', { name: 'Respostas rápidas' });
    fireEvent.click(within(popup).getByRole('option', { name: 'catalogo - Nosso catálogo' }));
    const files = await screen.findByRole('list', { name: 'Arquivos anexados' });
    expect(within(files).getByText('catalogo.pdf')).toBeTruthy();
    expect((input as HTMLTextAreaElement).value).toBe('Nosso catálogo');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.body instanceof FormData)).toBe(
        true,
      ),
    );
    const form = calls.find((call) => call.method === 'POST')?.body as FormData;
    expect((form.get('medias') as File).name).toBe('catalogo.pdf');
    expect(form.get('body')).toBe('Nosso catálogo');
    expect(form.get('signMessage')).toBe('true');
  });

  it('cuts quick reply labels at 35 characters', () => {
    expect(quickLabel({ shortcode: 'a', message: 'b'.repeat(60) })).toHaveLength(36);
  });

  it('sends on Enter with the sign option, keeps Shift+Enter and skips blank text', async () => {
    const { calls, sent } = setup();
    const input = await screen.findByRole('textbox', { name: 'Mensagem' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'Olá' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    expect((screen.getByRole('switch', { name: 'Assinar' }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveBeenCalled());
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ body: 'Olá', signMessage: true, quotedMsg: null });
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('offers the camera on a touch screen: the photo taken goes with the text like a file', async () => {
    // a phone: coarse pointer
    fakeMedia((query) => query.includes('pointer: coarse'));
    const { calls, sent } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Anexar arquivos' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Tirar foto', 'Arquivos']);
    const camera = screen.getByTestId('camera-input') as HTMLInputElement;
    const opened = vi.spyOn(camera, 'click');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Tirar foto' }));
    expect(opened).toHaveBeenCalled();
    expect(camera.accept).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');

    const photo = new File(['jpeg'], 'foto.jpg', { type: 'image/jpeg' });
    fireEvent.change(camera, { target: { files: [photo] } });
    const files = await screen.findByRole('list', { name: 'Arquivos anexados' });
    expect(within(files).getByText('foto.jpg')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Mensagem' }), {
      target: { value: 'Olha a foto' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(sent).toHaveBeenCalled());
    const form = calls.find((call) => call.method === 'POST')?.body as FormData;
    expect((form.get('medias') as File).name).toBe('foto.jpg');
    expect(form.get('body')).toBe('Olha a foto');
  });

  it('goes straight to the files on a desktop, with no camera', async () => {
    setup();
    const attach = await screen.findByRole('button', { name: 'Anexar arquivos' });
    const opened = vi.spyOn(screen.getByTestId('attach-input') as HTMLInputElement, 'click');
    fireEvent.click(attach);
    expect(opened).toHaveBeenCalled();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.queryByTestId('camera-input')).toBeNull();
  });
});
