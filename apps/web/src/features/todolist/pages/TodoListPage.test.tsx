import { fireEvent, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../app/i18n';
import { renderWithApp } from '../../../test/render';
import { TASKS_KEY } from '../storage';
import { TodoListPage } from './TodoListPage';

beforeAll(async () => {
  await i18n.loadNamespaces(['todolist']);
});

const renderPage = () => renderWithApp(<TodoListPage />, { route: '/todolist' });
const field = () => screen.getByRole('textbox', { name: 'Nova tarefa' });
const items = () =>
  within(screen.getByRole('list', { name: 'Lista de tarefas' }))
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('.MuiListItemText-primary')?.textContent);
const stored = () => JSON.parse(localStorage.getItem(TASKS_KEY) ?? '[]');

function type(text: string) {
  fireEvent.change(field(), { target: { value: text } });
}

describe('TodoListPage', () => {
  it('adds a task with Enter, trimmed, and keeps it in this browser only', async () => {
    renderPage();
    expect(await screen.findByText('Nenhuma tarefa')).toBeTruthy();
    type('  Ligar para o cliente  ');
    fireEvent.submit(field().closest('form')!);
    expect(items()).toEqual(['Ligar para o cliente']);
    expect(field()).toHaveProperty('value', '');
    expect(screen.getByRole('status').textContent).toBe('Tarefa adicionada');
    const [task] = stored();
    expect(task).toEqual({
      text: 'Ligar para o cliente',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: task.createdAt,
    });
  });

  it('ignores empty and blank text', async () => {
    renderPage();
    await screen.findByText('Nenhuma tarefa');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    type('   ');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(screen.getByText('Nenhuma tarefa')).toBeTruthy();
    expect(localStorage.getItem(TASKS_KEY)).toBeNull();
  });

  it('edits and deletes a task; the list survives a remount', async () => {
    const first = renderPage();
    await screen.findByText('Nenhuma tarefa');
    for (const text of ['Enviar proposta', 'Revisar contrato']) {
      type(text);
      fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    }
    fireEvent.click(screen.getByRole('button', { name: 'Editar tarefa: Enviar proposta' }));
    expect(field()).toHaveProperty('value', 'Enviar proposta');
    expect(document.activeElement).toBe(field());
    // a blank edit changes nothing
    type(' ');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(items()).toEqual(['Enviar proposta', 'Revisar contrato']);
    type('Enviar proposta revisada');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(items()).toEqual(['Enviar proposta revisada', 'Revisar contrato']);
    expect(screen.getByRole('button', { name: 'Adicionar' })).toBeTruthy();
    const [edited] = stored();
    expect(edited.text).toBe('Enviar proposta revisada');
    expect(edited.updatedAt >= edited.createdAt).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Excluir tarefa: Revisar contrato' }));
    expect(items()).toEqual(['Enviar proposta revisada']);
    expect(screen.getByRole('status').textContent).toBe('Tarefa excluída: Revisar contrato');

    first.unmount();
    renderPage();
    expect(await screen.findByText('Enviar proposta revisada')).toBeTruthy();
    expect(items()).toEqual(['Enviar proposta revisada']);
  });

  it('Escape leaves an edit without saving it', async () => {
    localStorage.setItem(
      TASKS_KEY,
      JSON.stringify([
        {
          text: 'Antiga',
          createdAt: '2025-01-01T10:00:00.000Z',
          updatedAt: '2025-01-01T10:00:00.000Z',
        },
      ]),
    );
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Editar tarefa: Antiga' }));
    type('Nova');
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(field()).toHaveProperty('value', '');
    expect(items()).toEqual(['Antiga']);
  });
});
