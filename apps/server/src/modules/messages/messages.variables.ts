import { DEFAULT_TIME_ZONE } from '@atendi/shared';
import { TZDate } from '@date-fns/tz';

const two = (value: number) => String(value).padStart(2, '0');

/** Calendar fields of an instant on the clock of `zone` (the company's), whatever the server's. */
export function zonedTime(at: Date, zone: string = DEFAULT_TIME_ZONE) {
  const local = new TZDate(at.getTime(), zone);
  return {
    year: String(local.getFullYear()),
    month: two(local.getMonth() + 1),
    day: two(local.getDate()),
    hour: two(local.getHours()),
    minute: two(local.getMinutes()),
  };
}

export function greetingAt(
  at: Date,
  zone: string = DEFAULT_TIME_ZONE,
): 'Bom dia' | 'Boa tarde' | 'Boa noite' {
  const hour = Number(zonedTime(at, zone).hour);
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export interface VariableContext {
  contactName: string;
  ticketId: number;
  ticketCreatedAt: Date;
  /** The company's time zone: greeting, date and hour are read on its clock. */
  timeZone?: string;
}

/**
 * Fills {{contactFirstName}} {{contactName}} {{greeting}} {{protocolNumber}} {{date}} {{hour}}.
 * One pass, so a contact named "{{date}}" is not expanded again; unknown names stay as written.
 */
export function resolveVariables(text: string, context: VariableContext, now = new Date()): string {
  if (!text.includes('{{')) return text;
  const zone = context.timeZone ?? DEFAULT_TIME_ZONE;
  const today = zonedTime(now, zone);
  const opened = zonedTime(context.ticketCreatedAt, zone);
  const values: Record<string, string> = {
    contactName: context.contactName,
    contactFirstName: context.contactName.trim().split(/\s+/)[0] ?? '',
    greeting: greetingAt(now, zone),
    // Stable for the ticket: the day it opened and its id.
    protocolNumber: `${opened.year}${opened.month}${opened.day}${context.ticketId}`,
    date: `${today.day}/${today.month}/${today.year}`,
    hour: `${today.hour}:${today.minute}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
