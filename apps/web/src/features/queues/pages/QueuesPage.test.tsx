import { DEFAULT_SCHEDULES, type Queue, type QueueOption } from '@atendi/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from '../../../app/guards';
import { i18n } from '../../../app/i18n';
import { SocketContext } from '../../../app/socket';
import { type Call, json, stubFetch } from '../../../test/fetch';
import { queueOptionRecord, queueRecord } from '../../../test/records';
import { renderWithApp, sessionUser } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { QueuesPage } from './QueuesPage';

const admin = sessionUser({ id: 1, profile: 'admin' });

const queue = (id: number, name: string, color: string, extra: Partial<Queue> = {}): Queue => ({
  ...queueRecord(id, name, color),
  ...extra,
});

/** A company's queues and bot menus kept in memory, answered as the server does. */
function fakeServer(extra?: (call: Call) => Response | Promise<Response> | undefined) {
  const queues: Queue[] = [
    queue(1, 'Vendas', '#2e7d32', { orderQueue: 1, greetingMessage: 'Bem-vindo às vendas!' }),
    queue(2, 'Suporte', '#d32f2f'),
  ];
  const options: QueueOption[] = [
    queueOptionRecord(10, { queueId: 1, title: 'Planos', option: '1', message: 'Nossos planos' }),
    queueOptionRecord(11, { queueId: 1, title: 'Boletos', option: '2' }),
  ];
  let nextId = 20;
  const level = (queueId: number, parentId: number | null) =>
    options
      .filter((option) => option.queueId === queueId && option.parentId === parentId)
      .map((option) => ({
        ...option,
        children: options
          .filter((child) => child.parentId === option.id)
          .map(({ children: _children, ...fields }) => fields),
      }));
  const calls = stubFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const { pathname, searchParams } = call.url;
    if (pathname === '/auth/me') return json(200, admin);
    if (pathname === '/queue' && call.method === 'GET') return json(200, queues);
    if (pathname === '/queue' && call.method === 'POST') {
      const created = queue(nextId++, '', '', call.body as Partial<Queue>);
      queues.push(created);
      return json(201, created);
    }
    if (pathname === '/queue-options' && call.method === 'GET') {
      const parent = searchParams.get('parentId');
      return json(200, level(Number(searchParams.get('queueId')), parent ? Number(parent) : null));
    }
    if (pathname === '/queue-options' && call.method === 'POST') {
      const body = call.body as QueueOption;
      const created = queueOptionRecord(nextId++, { ...body, parentId: body.parentId ?? null });
      options.push(created);
      return json(201, created);
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  return { calls, queues, options };
}

function renderPage(socket?: ReturnType<typeof fakeSocket>['socket']) {
  return renderWithApp(
    <SocketContext.Provider value={socket ?? null}>
      <RequireSession>
        <QueuesPage />
      </RequireSession>
    </SocketContext.Provider>,
    { route: '/queues' },
  );
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

describe('QueuesPage', () => {
  it('lists the queues with their colour, order and greeting, and follows queue events', async () => {
    const server = fakeServer();
    const { socket, serverEmit } = fakeSocket();
    renderPage(socket);
    const table = await screen.findByRole('table', { name: 'Filas & Chatbot' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['ID', 'Nome', 'Cor', 'Ordem', 'Mensagem de saudação', 'Ações']);
    const sales = (await within(table).findByText('Vendas')).closest('tr')!;
    expect(within(sales).getByRole('img', { name: 'Cor #2e7d32' })).toBeTruthy();
    expect(within(sales).getByText('#2e7d32')).toBeTruthy();
    expect(within(sales).getByText('Bem-vindo às vendas!')).toBeTruthy();
    expect(within(sales).getByRole('button', { name: 'Editar Vendas' })).toBeTruthy();

    // Another admin created a queue: the event names it, the list is read again.
    server.queues.push(queue(7, 'Financeiro', '#123abc'));
    serverEmit('company-1-queue', { action: 'create', queue: { id: 7 } });
    expect(await within(table).findByText('Financeiro')).toBeTruthy();
    serverEmit('company-1-queue', { action: 'delete', queueId: 2 });
    await waitFor(() => expect(within(table).queryByText('Suporte')).toBeNull());
  });

  it('validates the queue form as the spec says and saves it with its order as a number', async () => {
    const { calls } = fakeServer();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar fila' });
    const name = within(dialog).getByLabelText('Nome');
    const color = within(dialog).getByLabelText('Cor');

    fireEvent.change(color, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    const nameHelp = () => dialog.querySelector('#queue-name-helper-text')?.textContent;
    const colorHelp = () => dialog.querySelector('#queue-color-helper-text')?.textContent;
    await waitFor(() => expect(nameHelp()).toBe('Obrigatório'));
    expect(colorHelp()).toBe('Obrigatório');
    fireEvent.change(name, { target: { value: 'A' } });
    fireEvent.change(color, { target: { value: '#a' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(nameHelp()).toBe('Muito curto!'));
    expect(colorHelp()).toBe('Muito curto!');
    fireEvent.change(name, { target: { value: 'N'.repeat(51) } });
    fireEvent.change(color, { target: { value: '#abcdef123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(nameHelp()).toBe('Muito longo!'));
    expect(colorHelp()).toBe('Muito longo!');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // The picker and the text are one value.
    fireEvent.change(within(dialog).getByLabelText('Escolher a cor'), {
      target: { value: '#ff9800' },
    });
    expect((color as HTMLInputElement).value).toBe('#ff9800');
    fireEvent.change(name, { target: { value: 'Financeiro' } });
    fireEvent.change(within(dialog).getByLabelText('Ordem da fila (bot)'), {
      target: { value: '3' },
    });
    fireEvent.change(within(dialog).getByLabelText('Mensagem de saudação'), {
      target: { value: 'Olá!' },
    });
    fireEvent.change(within(dialog).getByLabelText('Mensagem de conclusão'), {
      target: { value: 'Até logo' },
    });
    expect(within(dialog).getByLabelText('Mensagem de avaliação')).toBeTruthy();
    // the plan has neither integrations nor prompts: empty, disabled, and said so
    expect(within(dialog).getAllByText('Nenhuma integração cadastrada').length).toBeGreaterThan(0);
    expect(within(dialog).getAllByText('Nenhum prompt cadastrado').length).toBeGreaterThan(0);
    // a new queue has no menu to edit yet
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Opções do chatbot' }));
    expect(within(dialog).getByText('Salve a fila para adicionar opções do chatbot')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));

    expect(await screen.findByText('Fila salva com sucesso!')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Financeiro',
      color: '#ff9800',
      orderQueue: 3,
      greetingMessage: 'Olá!',
      outOfHoursMessage: '',
      complationMessage: 'Até logo',
      ratingMessage: '',
      integrationId: null,
      promptId: null,
      // a new queue starts with the default week
      schedules: DEFAULT_SCHEDULES,
    });
    expect(calls.some((call) => call.url.pathname.startsWith('/queueIntegration'))).toBe(false);
    expect(calls.some((call) => call.url.pathname.startsWith('/prompt'))).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Financeiro')).toBeTruthy();
  });

  it('offers a colour no queue of the company uses, so a second queue saves at the first try', async () => {
    const { calls, queues } = fakeServer();
    queues[1]!.color = '#1976D2';
    renderPage();
    await screen.findByText('Suporte');
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar fila' });
    const offered = (within(dialog).getByLabelText('Cor') as HTMLInputElement).value;
    expect(offered).toMatch(/^#[0-9a-f]{6}$/i);
    expect(queues.map((queue) => queue.color.toLowerCase())).not.toContain(offered.toLowerCase());
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Financeiro' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ color: offered }),
    );
  });

  it('offers a free colour again when the queues arrive after the dialog opened', async () => {
    let release = () => {};
    const arrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    let listed: Queue[] = [];
    const server = fakeServer((call) =>
      call.url.pathname === '/queue' && call.method === 'GET'
        ? arrived.then(() => json(200, listed))
        : undefined,
    );
    server.queues[1]!.color = '#1976D2';
    listed = server.queues;
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar fila' });
    const colour = () => (within(dialog).getByLabelText('Cor') as HTMLInputElement).value;
    // nothing known yet: the first colour of the list, which 'Suporte' turns out to use
    expect(colour().toLowerCase()).toBe('#1976d2');
    release();
    await waitFor(() => expect(colour().toLowerCase()).not.toBe('#1976d2'));
    expect(listed.map((queue) => queue.color.toLowerCase())).not.toContain(colour().toLowerCase());
  });

  it('shows a colour in use on the colour field and the plan limit as a toast', async () => {
    fakeServer((call) => {
      if (call.url.pathname === '/auth/refresh_token') return json(200, { token: 'fresh' });
      if (call.method !== 'POST' || call.url.pathname !== '/queue') return undefined;
      const body = call.body as { color: string };
      return body.color === '#2e7d32'
        ? json(409, { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' })
        : json(403, { error: 'ERR_NO_PERMISSION' });
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar fila' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Outra' } });
    fireEvent.change(within(dialog).getByLabelText('Cor'), { target: { value: '#2e7d32' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() =>
      expect(dialog.querySelector('#queue-color-helper-text')?.textContent).toBe(
        'Esta cor já está em uso, escolha outra.',
      ),
    );
    fireEvent.change(within(dialog).getByLabelText('Cor'), { target: { value: '#000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(await screen.findByText('O limite de filas do seu plano foi atingido.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Adicionar fila' })).toBeTruthy();
  });

  it("edits a saved queue's bot menu: adds an option under another and shows it in the tree", async () => {
    const { calls } = fakeServer();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar Vendas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar fila' });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Opções do chatbot' }));
    const menu = await within(dialog).findByRole('list', { name: 'Opções do chatbot' });
    expect(within(menu).getAllByRole('listitem')).toHaveLength(2);
    const plans = within(menu).getByRole('listitem', { name: '1 Planos' });
    expect(within(plans).getByText('Nossos planos')).toBeTruthy();

    fireEvent.click(within(plans).getByRole('button', { name: 'Adicionar opção em Planos' }));
    const form = await within(dialog).findByRole('group', { name: 'Nova opção em Planos' });
    expect((within(form).getByLabelText('Número') as HTMLInputElement).value).toBe('1');
    // Enter saves the option, not the queue; an empty title is refused first
    fireEvent.keyDown(within(form).getByLabelText('Título'), { key: 'Enter' });
    expect(await within(form).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Título'), { target: { value: 'Plano anual' } });
    fireEvent.change(within(form).getByLabelText('Mensagem'), {
      target: { value: '12 meses pelo preço de 10' },
    });
    fireEvent.keyDown(within(form).getByLabelText('Título'), { key: 'Enter' });

    const children = await within(dialog).findByRole('list', { name: 'Opções de Planos' });
    expect(await within(children).findByRole('listitem', { name: '1 Plano anual' })).toBeTruthy();
    expect(within(children).getByText('12 meses pelo preço de 10')).toBeTruthy();
    expect(within(dialog).queryByRole('group', { name: 'Nova opção em Planos' })).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      {
        queueId: 1,
        parentId: 10,
        option: '1',
        title: 'Plano anual',
        message: '12 meses pelo preço de 10',
      },
    ]);
    // the queue itself was not saved by the option's Enter
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Editar fila' })).toBeTruthy();

    // Escape closes an option's form only, and the focus returns to its row.
    const bills = within(menu).getByRole('listitem', { name: '2 Boletos' });
    fireEvent.click(within(bills).getByRole('button', { name: 'Editar a opção Boletos' }));
    const edit = await within(dialog).findByRole('group', { name: 'Editando a opção Boletos' });
    expect((within(edit).getByLabelText('Título') as HTMLInputElement).value).toBe('Boletos');
    fireEvent.keyDown(within(edit).getByLabelText('Título'), { key: 'Escape' });
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(menu).getByRole('listitem', { name: '2 Boletos' }),
      ),
    );
    expect(screen.getByRole('dialog', { name: 'Editar fila' })).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});
