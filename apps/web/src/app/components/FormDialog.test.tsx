import TextField from '@mui/material/TextField';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DialogFooter } from './DialogFooter';
import { FormDialog } from './FormDialog';

function NameDialog(props: { save: (name: string) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  return (
    <FormDialog
      open
      onClose={props.onClose}
      title="Nova fila"
      submitLabel="Adicionar"
      pending={pending}
      onSubmit={async () => {
        setPending(true);
        await props.save(name);
        setPending(false);
      }}
    >
      <TextField label="Nome" value={name} onChange={(event) => setName(event.target.value)} />
    </FormDialog>
  );
}

describe('FormDialog', () => {
  it('is named by its title and submits its form with the footer button', async () => {
    let finish = () => {};
    const save = vi.fn(
      (_name: string) =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    render(<NameDialog save={save} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Nova fila' });
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Vendas' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adicionar' }));
    expect(save).toHaveBeenCalledWith('Vendas');

    // while it is sent, neither button can be pressed again
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Adicionar' })).toHaveProperty(
        'disabled',
        true,
      ),
    );
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toHaveProperty(
      'disabled',
      true,
    );
    finish();
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Adicionar' })).toHaveProperty(
        'disabled',
        false,
      ),
    );
  });

  it('submits its form from a field (as Enter does), and cancels without submitting', async () => {
    const save = vi.fn(async (_name: string) => {});
    const onClose = vi.fn();
    render(<NameDialog save={save} onClose={onClose} />);
    const field = screen.getByLabelText('Nome');
    fireEvent.change(field, { target: { value: 'Suporte' } });
    fireEvent.submit(field.closest('form')!);
    expect(save).toHaveBeenCalledWith('Suporte');

    const cancel = screen.getByRole('button', { name: 'Cancelar' });
    await waitFor(() => expect(cancel).toHaveProperty('disabled', false));
    fireEvent.click(cancel);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledTimes(1);
  });
});

describe('DialogFooter', () => {
  it('runs its own action when the dialog is not a form', () => {
    const onSubmit = vi.fn();
    const onCancel = vi.fn();
    render(<DialogFooter onCancel={onCancel} submitLabel="Transferir" onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Transferir' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Transferir' }).getAttribute('type')).toBe('button');
  });

  it('only closes when there is nothing to submit, after what it shows first', () => {
    const onCancel = vi.fn();
    render(<DialogFooter onCancel={onCancel} start={<a href="/simulator">Abrir o simulador</a>} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Fechar']);
    expect(screen.getByRole('link', { name: 'Abrir o simulador' })).toBeTruthy();
    fireEvent.click(buttons[0]!);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('keeps the main button off while the form cannot be sent', () => {
    render(<DialogFooter onCancel={() => {}} submitLabel="Salvar" submitDisabled />);
    expect(screen.getByRole('button', { name: 'Salvar' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveProperty('disabled', false);
  });

  it('puts the focus on a dangerous action, which reads in red', () => {
    render(
      <DialogFooter onCancel={() => {}} submitLabel="Excluir" onSubmit={() => {}} tone="danger" />,
    );
    const main = screen.getByRole('button', { name: 'Excluir' });
    expect(document.activeElement).toBe(main);
    expect(main.className).toContain('MuiButton-colorError');
  });
});
