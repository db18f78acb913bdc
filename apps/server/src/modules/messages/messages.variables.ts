const SAO_PAULO = 'America/Sao_Paulo';

const clock = new Intl.DateTimeFormat('en-GB', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Calendar fields of an instant on São Paulo's clock, where the product's customers live. */
export function saoPauloTime(at: Date) {
  const parts = Object.fromEntries(clock.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
  };
}

export function greetingAt(at: Date): 'Bom dia' | 'Boa tarde' | 'Boa noite' {
  const hour = Number(saoPauloTime(at).hour);
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

export interface VariableContext {
  contactName: string;
  ticketId: number;
  ticketCreatedAt: Date;
}

/**
 * Fills {{contactFirstName}} {{contactName}} {{greeting}} {{protocolNumber}} {{date}} {{hour}}.
 * One pass, so a contact named "{{date}}" is not expanded again; unknown names stay as written.
 */
export function resolveVariables(text: string, context: VariableContext, now = new Date()): string {
  if (!text.includes('{{')) return text;
  const today = saoPauloTime(now);
  const opened = saoPauloTime(context.ticketCreatedAt);
  const values: Record<string, string> = {
    contactName: context.contactName,
    contactFirstName: context.contactName.trim().split(/\s+/)[0] ?? '',
    greeting: greetingAt(now),
    // Stable for the ticket: the day it opened and its id.
    protocolNumber: `${opened.year}${opened.month}${opened.day}${context.ticketId}`,
    date: `${today.day}/${today.month}/${today.year}`,
    hour: `${today.hour}:${today.minute}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
