import type { CompanySchedule } from '@atendi/shared';
import { TZDate } from '@date-fns/tz';

const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

const minutesOf = (time: string) => {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
};

/** A day's opening and closing minute, or undefined when the day is closed (00:00-00:00). */
function hoursOf(schedules: readonly CompanySchedule[], weekday: (typeof WEEKDAYS)[number]) {
  const entry = schedules.find((item) => item.weekdayEn === weekday);
  const start = entry ? minutesOf(entry.startTime) : undefined;
  const end = entry ? minutesOf(entry.endTime) : undefined;
  if (start === undefined || end === undefined || end <= start) return undefined;
  return { start, end };
}

/**
 * Whether `at` falls inside the opening hours, read on the clock of `zone` (the company's), so
 * the answer does not depend on the server's own zone.
 */
export function isOpen(schedules: readonly CompanySchedule[], at: Date, zone: string): boolean {
  const local = new TZDate(at.getTime(), zone);
  const hours = hoursOf(schedules, WEEKDAYS[local.getDay()]!);
  if (!hours) return false;
  const minute = local.getHours() * 60 + local.getMinutes();
  return minute >= hours.start && minute < hours.end;
}

/**
 * When the hours next open after `at` (the end of the closed period `at` is in), or undefined
 * when no day of the week opens. It names the closed period: an out-of-hours answer is sent once
 * for each.
 */
export function nextOpening(
  schedules: readonly CompanySchedule[],
  at: Date,
  zone: string,
): Date | undefined {
  const local = new TZDate(at.getTime(), zone);
  for (let offset = 0; offset <= 7; offset++) {
    const day = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + offset, zone);
    const hours = hoursOf(schedules, WEEKDAYS[day.getDay()]!);
    if (!hours) continue;
    const opening = new TZDate(
      day.getFullYear(),
      day.getMonth(),
      day.getDate(),
      Math.floor(hours.start / 60),
      hours.start % 60,
      zone,
    );
    if (opening.getTime() > at.getTime()) return new Date(opening.getTime());
  }
  return undefined;
}
