import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../test/fetch';
import { queueRecord } from '../../../test/records';
import { renderWithApp } from '../../../test/render';
import { colorOf } from '../../../test/style';
import { QueueSelect } from './QueueSelect';

// whole queues, as the server answers them: the web checks answers against the contract
const SUPORTE = queueRecord(3, 'Suporte', '#1976d2');
const VENDAS = queueRecord(4, 'Vendas', '#ffeb3b');

function Picker({
  initial = [],
  onChange,
}: {
  initial?: number[];
  onChange?: (ids: number[]) => void;
}) {
  const [value, setValue] = useState<number[]>(initial);
  return (
    <QueueSelect
      id="picker-queues"
      value={value}
      onChange={(ids) => {
        setValue(ids);
        onChange?.(ids);
      }}
    />
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('QueueSelect', () => {
  it('picks several queues, each shown as a chip in its colour with readable text', async () => {
    stubFetch((call) =>
      call.url.pathname === '/queue' ? json(200, [SUPORTE, VENDAS]) : json(404, {}),
    );
    const onChange = vi.fn();
    renderWithApp(<Picker onChange={onChange} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filas' }));
    const listbox = await screen.findByRole('listbox');
    expect(await within(listbox).findByRole('option', { name: 'Suporte' })).toBeTruthy();
    fireEvent.click(within(listbox).getByRole('option', { name: 'Vendas' }));
    fireEvent.click(within(listbox).getByRole('option', { name: 'Suporte' }));
    expect(onChange).toHaveBeenLastCalledWith([4, 3]);
    fireEvent.keyDown(listbox, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());

    const combobox = screen.getByRole('combobox', { name: 'Filas' });
    const suporte = within(combobox).getByText('Suporte').closest('.MuiChip-root')!;
    const vendas = within(combobox).getByText('Vendas').closest('.MuiChip-root')!;
    expect(colorOf(suporte, 'backgroundColor')).toBe('rgb(25, 118, 210)');
    expect(colorOf(suporte, 'color')).toBe('rgb(255, 255, 255)');
    // a light queue colour gets dark text
    expect(colorOf(vendas, 'backgroundColor')).toBe('rgb(255, 235, 59)');
    expect(colorOf(vendas, 'color')).not.toBe('rgb(255, 255, 255)');
  });

  it('says when the company has no queues, and when they could not be loaded', async () => {
    stubFetch(() => json(200, []));
    const { unmount } = renderWithApp(<Picker />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Filas' }));
    expect(await screen.findByRole('option', { name: 'Nenhuma fila cadastrada' })).toBeTruthy();
    unmount();

    stubFetch(() => json(500, { error: 'ERR_INTERNAL' }));
    renderWithApp(<Picker initial={[3]} />);
    expect(await screen.findByText('Não foi possível carregar as filas')).toBeTruthy();
    // a chosen queue whose name is unknown still shows, by its number
    expect(screen.getByText('#3')).toBeTruthy();
  });
});
