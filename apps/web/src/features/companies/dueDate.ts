import { RECURRENCE_MONTHS, type Recurrence } from '@atendi/shared';

const DAY_MS = 86_400_000;

/** yyyy-mm-dd of a day, read in UTC so no time zone moves it. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const parseDay = (value: string | null | undefined): Date | undefined => {
  const match = value?.match(/^(\d{4})-(\d{2})-(\d{2})/);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** The form's due date as the route takes it: a date it cannot read is sent as null. */
export function dueDateOrNull(value: string | null | undefined): string | null {
  const day = parseDay(value);
  return day && isoDay(day) === value?.slice(0, 10) ? isoDay(day) : null;
}

/**
 * '+ Vencimento': the due date (today when there is none) moved on by the recurrence's months,
 * the day kept or, in a shorter month, its last day (31 January + 1 month is 28 or 29 February).
 */
export function nextDueDate(
  dueDate: string | null,
  recurrence: Recurrence,
  today = new Date(),
): string {
  const from = parseDay(dueDate) ?? parseDay(isoDay(today))!;
  const months = RECURRENCE_MONTHS[recurrence];
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return isoDay(target);
}

export type DueTone = 'soon' | 'due' | 'overdue' | undefined;

/** Whole days from today to the due date (negative once it passed). */
export function daysUntil(dueDate: string | null, today = new Date()): number | undefined {
  const due = parseDay(dueDate);
  if (!due) return undefined;
  const start = parseDay(isoDay(new Date(today.getTime() - today.getTimezoneOffset() * 60_000)))!;
  return Math.round((due.getTime() - start.getTime()) / DAY_MS);
}

/**
 * The row's colour by due date, as the spec reads it: 5 days left yellow, from 3 days past to 4
 * left orange, 4 or more days past red; otherwise none.
 */
export function dueTone(dueDate: string | null, today = new Date()): DueTone {
  const days = daysUntil(dueDate, today);
  if (days === undefined) return undefined;
  if (days === 5) return 'soon';
  if (days >= -3 && days <= 4) return 'due';
  if (days <= -4) return 'overdue';
  return undefined;
}
