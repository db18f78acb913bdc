import { DEFAULT_TIME_ZONE, type SessionUser } from '@atendi/shared';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { useMemo } from 'react';
import { useAuth } from './auth';

/**
 * The company's clock: every date and time a person types or reads is on the company's time zone
 * (its `timezone` setting), whatever the browser's zone. Instants travel as ISO text; a person
 * sees and types the wall-clock time of the company. Built on @date-fns/tz (the server reads the
 * same zone with it).
 */

/** A zone the browser knows, else the product's default. */
function knownZone(zone: string | undefined): string {
  if (!zone) return DEFAULT_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** The company's zone of a signed-in user (its `timezone` setting), else the product's default. */
export function companyTimeZone(user: Pick<SessionUser, 'company'> | null | undefined): string {
  return knownZone(user?.company?.settings?.find((item) => item.key === 'timezone')?.value);
}

const instant = (value: string | Date | number): Date | null => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** `value` written with a date-fns pattern on the zone's clock; '' when it is not a date. */
export function formatInZone(
  value: string | Date | number | null | undefined,
  zone: string,
  pattern: string,
): string {
  if (value === null || value === undefined || value === '') return '';
  const date = instant(value);
  return date ? format(new TZDate(date.getTime(), zone), pattern) : '';
}

const INPUT_PATTERN = "yyyy-MM-dd'T'HH:mm";
const INPUT_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The value of a datetime-local input for an instant, on the zone's clock. */
export const toZoneInput = (value: string | Date | number, zone: string): string =>
  formatInZone(value, zone, INPUT_PATTERN);

/** The instant (ISO, UTC) a datetime-local input's text names on the zone's clock; null if none. */
export function fromZoneInput(text: string, zone: string): string | null {
  const match = INPUT_TEXT.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const local = new TZDate(year!, month! - 1, day!, hour!, minute!, second!, zone);
  const time = local.getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * A browser Date whose local fields are the zone's wall clock at `value`: for components that
 * only draw in the browser's zone (the schedules calendar).
 */
export function wallClock(value: string | Date | number, zone: string): Date {
  const local = new TZDate(new Date(value).getTime(), zone);
  return new Date(
    local.getFullYear(),
    local.getMonth(),
    local.getDate(),
    local.getHours(),
    local.getMinutes(),
    local.getSeconds(),
  );
}

/** The day (yyyy-MM-dd) an instant falls on, on the zone's clock. */
export const dayInZone = (value: string | Date | number, zone: string): string =>
  formatInZone(value, zone, 'yyyy-MM-dd');

export interface Clock {
  zone: string;
  /** dd/MM/yyyy HH:mm */
  dateTime: (value: string | Date | null | undefined) => string;
  /** dd/MM/yy HH:mm (lists short of room) */
  shortDateTime: (value: string | Date | null | undefined) => string;
  /** HH:mm */
  time: (value: string | Date | null | undefined) => string;
  /** dd/MM/yyyy */
  date: (value: string | Date | null | undefined) => string;
  format: (value: string | Date | null | undefined, pattern: string) => string;
  toInput: (value: string | Date | number) => string;
  fromInput: (text: string) => string | null;
}

export function clockOf(zone: string): Clock {
  return {
    zone,
    dateTime: (value) => formatInZone(value, zone, 'dd/MM/yyyy HH:mm'),
    shortDateTime: (value) => formatInZone(value, zone, 'dd/MM/yy HH:mm'),
    time: (value) => formatInZone(value, zone, 'HH:mm'),
    date: (value) => formatInZone(value, zone, 'dd/MM/yyyy'),
    format: (value, pattern) => formatInZone(value, zone, pattern),
    toInput: (value) => toZoneInput(value, zone),
    fromInput: (text) => fromZoneInput(text, zone),
  };
}

/** The signed-in company's clock (the default zone before anyone signs in). */
export function useClock(): Clock {
  const { user } = useAuth();
  const zone = companyTimeZone(user);
  return useMemo(() => clockOf(zone), [zone]);
}
