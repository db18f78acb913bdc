import { z } from 'zod';

/** The spec's form messages; the web translates them, the server answers them in `fields`. */
export const MSG = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
  invalidTime: 'Invalid time (HH:MM)',
  endBeforeStart: 'The end must come after the start',
  everyWeekday: 'Each day of the week once',
} as const;

/** A required trimmed string between min and max characters, with the spec's messages. */
export const boundedString = (min: number, max: number) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(min, MSG.tooShort)
    .max(max, MSG.tooLong);

export const emailField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.tooLong)
  .pipe(z.email(MSG.invalidEmail))
  .transform((email) => email.toLowerCase());

export const passwordField = z
  .string({ error: MSG.required })
  .min(5, MSG.tooShort)
  .max(50, MSG.tooLong);

export const positiveId = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * A number as JSON or as the text a form sends. Unlike z.coerce alone, blank text, null, booleans
 * and arrays are refused instead of read as 0 or 1.
 */
export const numberInput = z
  .union([z.number(), z.string().trim().min(1, MSG.required)], { error: MSG.required })
  .pipe(z.coerce.number());
