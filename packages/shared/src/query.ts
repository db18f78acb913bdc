import { z } from 'zod';
import { positiveId } from './validation';

/**
 * A list of ids in a query string, as the spec's clients send it: JSON (`[1,2]`), a comma list
 * (`1,2`) or a repeated key. Empty means no filter.
 */
export const idListQuery = listQuery(positiveId, 200);

/** A list of `item` in a query string, spelled as idListQuery's; at most `max` items. */
export function listQuery<T extends z.ZodType>(item: T, max: number) {
  return z
    .union([z.string().max(4000), z.array(z.string().max(20)).max(max)])
    .transform((value, ctx) => {
      const items = Array.isArray(value) ? value : parseList(value);
      if (!items) {
        ctx.addIssue({ code: 'custom', message: 'Invalid list' });
        return z.NEVER;
      }
      return items;
    })
    .pipe(z.array(item).max(max));
}

function parseList(text: string): unknown[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return trimmed.split(',').map((item) => item.trim());
}

/** 'true' / 'false' in a query string. */
export const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A calendar day (`2025-03-01`, or an ISO date-time whose day is taken). */
export const dayQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'Invalid date')
  .transform((value) => value.slice(0, 10))
  .refine((day) => {
    const parsed = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
  }, 'Invalid date');
