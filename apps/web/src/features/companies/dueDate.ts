import { RECURRENCE_MONTHS, type Recurrence } from '@atendi/shared';
import { addMonths, differenceInCalendarDays, format, isValid, parse } from 'date-fns';

/** A due date as the route writes it: a calendar day, with no time and no zone. */
const DAY = 'yyyy-MM-dd';

/** The day a 'yyyy-mm-dd' text (or the start of an ISO time) names, at local midnight. */
const parseDay = (value: string | null | undefined): Date | undefined => {
  if (!value) return undefined;
  const day = parse(value.slice(0, 10), DAY, new Date());
  return isValid(day) ? day : undefined;
};

/** The form's due date as the route takes it: a date it cannot read is sent as null. */
export function dueDateOrNull(value: string | null | undefined): string | null {
  const day = parseDay(value);
  return day ? format(day, DAY) : null;
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
  // Without a due date, from today's date in UTC.
  const from = parseDay(dueDate) ?? parseDay(today.toISOString())!;
  return format(addMonths(from, RECURRENCE_MONTHS[recurrence]), DAY);
}

export type DueTone = 'soon' | 'due' | 'overdue' | undefined;

/** Whole days from today to the due date (negative once it passed). */
export function daysUntil(dueDate: string | null, today = new Date()): number | undefined {
  const due = parseDay(dueDate);
  return due ? differenceInCalendarDays(due, today) : undefined;
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
