import {
  type CompanySchedule,
  DEFAULT_SCHEDULES,
  type Weekday,
  weekSchedulesSchema,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type Resolver, useForm } from 'react-hook-form';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { i18n } from '../i18n';
import { WeekScheduleFields } from './WeekScheduleFields';

/** A form of another feature (a queue's), holding its week under a name of its own. */
interface QueueForm {
  name: string;
  hours: CompanySchedule[];
}

const schema = z.object({ name: z.string(), hours: weekSchedulesSchema });

function QueueHours({ onSave }: { onSave: (values: unknown) => void }) {
  const { control, handleSubmit } = useForm<QueueForm>({
    resolver: zodResolver(schema) as unknown as Resolver<QueueForm>,
    defaultValues: { name: 'Vendas', hours: DEFAULT_SCHEDULES },
  });
  return (
    <form onSubmit={handleSubmit(onSave)}>
      <WeekScheduleFields control={control} name="hours" />
      <button type="submit">Salvar</button>
    </form>
  );
}

const renderForm = (onSave = vi.fn()) => {
  render(
    <I18nextProvider i18n={i18n}>
      <QueueHours onSave={onSave} />
    </I18nextProvider>,
  );
  return onSave;
};

const day = (name: string) => within(screen.getByRole('group', { name }));
const field = (dayName: string, label: 'Início' | 'Fim') =>
  day(dayName).getByLabelText(label) as HTMLInputElement;

describe('WeekScheduleFields', () => {
  it('shows each weekday once, labelled, with its start and end', () => {
    renderForm();
    expect(screen.getByRole('group', { name: 'Horário de cada dia da semana' })).toBeTruthy();
    for (const name of [
      'Segunda-feira',
      'Terça-feira',
      'Quarta-feira',
      'Quinta-feira',
      'Sexta-feira',
      'Sábado',
      'Domingo',
    ]) {
      expect(field(name, 'Início')).toBeTruthy();
      expect(field(name, 'Fim')).toBeTruthy();
    }
    expect(field('Sábado', 'Fim').value).toBe('12:00');
    expect(field('Domingo', 'Início').value).toBe('00:00');
    expect(day('Domingo').getByText('(Fechado)')).toBeTruthy();
    expect(day('Sábado').queryByText('(Fechado)')).toBeNull();
  });

  it("masks what is typed: '0830' shows 08:30", () => {
    renderForm();
    const start = field('Quarta-feira', 'Início');
    fireEvent.change(start, { target: { value: '0830' } });
    expect(start.value).toBe('08:30');
    fireEvent.change(start, { target: { value: '12345' } });
    expect(start.value).toBe('12:34');
    expect(start.getAttribute('inputmode')).toBe('numeric');
  });

  it("hands the form's own field the week, and marks an invalid time with a message", async () => {
    const onSave = renderForm();
    fireEvent.change(field('Domingo', 'Início'), { target: { value: '0900' } });
    fireEvent.change(field('Domingo', 'Fim'), { target: { value: '1200' } });
    fireEvent.change(field('Segunda-feira', 'Fim'), { target: { value: '2500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await day('Segunda-feira').findByText('Hora inválida (HH:MM)')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(field('Segunda-feira', 'Fim'), { target: { value: '1800' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    const saved = onSave.mock.calls[0]![0] as { name: string; hours: CompanySchedule[] };
    expect(saved.name).toBe('Vendas');
    const sunday = saved.hours.find((entry) => entry.weekdayEn === ('sunday' as Weekday));
    expect(sunday).toEqual({
      weekday: 'Domingo',
      weekdayEn: 'sunday',
      startTime: '09:00',
      endTime: '12:00',
    });
  });
});
