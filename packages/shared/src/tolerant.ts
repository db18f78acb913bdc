import { z } from 'zod';
import { MSG } from './validation';

/** PostgreSQL's integer, the ids' type. */
const MAX_ID = 2_147_483_647;

/**
 * How the spec's clients spell "nothing" and numbers, read once for every contract. The original
 * product's forms start their selects at `false` or `""` and send them as they are when nothing
 * was picked, and its number fields as the text typed. These read those values for what they
 * mean; anything else still goes through the field's own schema, so a value that means nothing
 * (`whatsappId: "abc"`, `orderQueue: "x"`) is refused as before.
 */

/** The original's empty values: an unpicked select (`false`), a blank field (`""`). */
export const isEmptyValue = (value: unknown): boolean =>
  value === false || (typeof value === 'string' && value.trim() === '');

/** `schema`, or none (null) for the original's empty values and null. */
export const noneIfEmpty = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (isEmptyValue(value) ? null : value), schema.nullable());

/** A record's id as a number or as its digits; `true`, "abc" and arrays mean nothing. */
const idValue = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'Invalid id')])
  .pipe(z.coerce.number<string | number>().int().positive().max(MAX_ID));

/** An optional reference to a record: its id, or none (null) for an empty value. */
export const optionalRef = noneIfEmpty(idValue).optional();

/**
 * An optional whole number sent as a number or as the text typed ("3"); blank is none. Booleans
 * other than the empty `false`, arrays and text that is no number are refused.
 */
export const optionalWholeNumber = (min: number, max: number) =>
  noneIfEmpty(
    z
      .union([z.number(), z.string().trim()], { error: MSG.required })
      .pipe(z.coerce.number<string | number>().int().min(min).max(max)),
  ).optional();

/**
 * `schema`, or unset (undefined) for the original's empty values: a blank field the form sends
 * as it started ("") leaves the column to its default on create and as it was on update.
 */
export const unsetIfEmpty = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (isEmptyValue(value) ? undefined : value), schema.optional());
