import { z } from 'zod';
import { MESSAGE_BODY_MAX } from '../messages/messages.schemas';
import { listQuerySchema } from '../pagination';
import { optionalRef } from '../tolerant';
import { MSG, positiveId } from '../validation';

/** The spec's schedule messages (core 5), in the original product's words. */
export const SCHEDULE_MSG = {
  bodyTooShort: 'Mensagem muito curta',
  required: 'Obrigatório',
  invalidDate: 'Invalid date',
} as const;

export const SCHEDULE_BODY_MIN = 5;

/** Waiting, handed to the connection, or not sendable (contact or connection gone). */
export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Images a schedule may carry (the spec: .png, .jpg, .jpeg). */
export const SCHEDULE_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;

/**
 * A date-time as the clients send it: ISO 8601 with its offset (`2025-03-01T14:30:00.000Z`), or
 * the original client's local forms (`2025-03-01T14:30`, `2025-03-01 14:30:00`), which the server
 * reads on the company's clock.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export interface DateTimeText {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** The offset as written (`Z`, `-03:00`); undefined for a local time. */
  offset?: string;
}

/** The parts of a date-time text, or undefined when it is not one (or names no real day). */
export function parseDateTimeText(text: string): DateTimeText | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const parts: DateTimeText = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: Number((fraction ?? '0').padEnd(3, '0').slice(0, 3)),
    ...(offset ? { offset } : {}),
  };
  const probe = new Date(
    Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute),
  );
  const real =
    probe.getUTCFullYear() === parts.year &&
    probe.getUTCMonth() === parts.month - 1 &&
    probe.getUTCDate() === parts.day &&
    parts.hour < 24 &&
    parts.minute < 60 &&
    parts.second < 60;
  return real ? parts : undefined;
}

const sendAtField = z
  .string({ error: SCHEDULE_MSG.required })
  .trim()
  .min(1, { message: SCHEDULE_MSG.required, abort: true })
  .max(40, SCHEDULE_MSG.invalidDate)
  .refine((text) => parseDateTimeText(text) !== undefined, SCHEDULE_MSG.invalidDate);

const scheduleFields = {
  body: z
    .string({ error: SCHEDULE_MSG.required })
    .trim()
    .min(SCHEDULE_BODY_MIN, SCHEDULE_MSG.bodyTooShort)
    .max(MESSAGE_BODY_MAX, MSG.tooLong),
  contactId: z.coerce
    .number({ error: SCHEDULE_MSG.required })
    .int(SCHEDULE_MSG.required)
    .positive(SCHEDULE_MSG.required)
    .max(2_147_483_647),
  sendAt: sendAtField,
  /** The connection it goes out through; the company's default one when none (`""` too). */
  whatsappId: optionalRef,
};

export const scheduleCreateSchema = z.object(scheduleFields);
export type ScheduleCreate = z.infer<typeof scheduleCreateSchema>;

export const scheduleUpdateSchema = z.object({
  body: scheduleFields.body.optional(),
  contactId: scheduleFields.contactId.optional(),
  sendAt: scheduleFields.sendAt.optional(),
  whatsappId: scheduleFields.whatsappId,
});
export type ScheduleUpdate = z.infer<typeof scheduleUpdateSchema>;

export const scheduleSchema = z.object({
  id: z.number(),
  body: z.string(),
  sendAt: z.string(),
  /** When it was handed to the connection; a sent schedule is no longer edited. */
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  contactId: z.number(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  whatsappId: z.number().nullable(),
  /** The conversation it went to, once sent. */
  ticketId: z.number().nullable(),
  userId: z.number().nullable(),
  /** Signed, short-lived address of the attached image; null without one. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const scheduleListQuerySchema = listQuerySchema.extend({
  contactId: positiveId.optional(),
  companyId: z.coerce.number().int().optional(),
});
export type ScheduleListQuery = z.infer<typeof scheduleListQuerySchema>;

export const schedulesPageSchema = z.object({
  schedules: z.array(scheduleSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type SchedulesPage = z.infer<typeof schedulesPageSchema>;

/** Text fields of POST /schedules/:id/media-upload (the file comes as `file`). */
export const scheduleMediaFormSchema = z.object({
  typeArch: z.string().max(50).optional(),
});
