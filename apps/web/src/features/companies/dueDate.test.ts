import { describe, expect, it } from 'vitest';
import { dueDateOrNull, dueTone, nextDueDate } from './dueDate';

const at = (iso: string) => new Date(`${iso}T12:00:00`);

describe('nextDueDate', () => {
  it.each([
    ['MENSAL', '2026-03-15', '2026-04-15'],
    ['BIMESTRAL', '2026-03-15', '2026-05-15'],
    ['TRIMESTRAL', '2026-03-15', '2026-06-15'],
    ['SEMESTRAL', '2026-03-15', '2026-09-15'],
    ['ANUAL', '2026-03-15', '2027-03-15'],
    ['MENSAL', '2026-01-31', '2026-02-28'],
    ['MENSAL', '2028-01-31', '2028-02-29'],
    ['TRIMESTRAL', '2026-11-30', '2027-02-28'],
  ] as const)('%s moves %s to %s', (recurrence, from, to) => {
    expect(nextDueDate(from, recurrence)).toBe(to);
  });

  it('starts from today when the company has no due date', () => {
    expect(nextDueDate(null, 'MENSAL', new Date('2026-05-10T12:00:00Z'))).toBe('2026-06-10');
  });
});

describe('dueDateOrNull', () => {
  it('keeps a real date and sends null for what it cannot read', () => {
    expect(dueDateOrNull('2026-02-28')).toBe('2026-02-28');
    expect(dueDateOrNull('2026-02-30')).toBeNull();
    expect(dueDateOrNull('')).toBeNull();
    expect(dueDateOrNull('amanhã')).toBeNull();
  });
});

describe('dueTone', () => {
  const today = at('2026-06-10');
  it.each([
    ['2026-06-16', undefined],
    ['2026-06-15', 'soon'],
    ['2026-06-14', 'due'],
    ['2026-06-10', 'due'],
    ['2026-06-07', 'due'],
    ['2026-06-06', 'overdue'],
    ['2026-01-01', 'overdue'],
    [null, undefined],
  ] as const)('%s reads %s', (dueDate, tone) => {
    expect(dueTone(dueDate, today)).toBe(tone);
  });
});
