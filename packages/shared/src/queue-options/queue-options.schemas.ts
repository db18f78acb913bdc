import { z } from 'zod';
import { boundedString, MSG, positiveId } from '../validation';

/** One entry of a queue's bot menu (spec administration 3, "Queue option"). */
export const queueOptionFieldsSchema = z.object({
  id: z.number(),
  title: z.string(),
  message: z.string(),
  /** What the contact types to choose it: digits ('1', '2', ...). */
  option: z.string(),
  queueId: z.number(),
  /** null for the menu's first level. */
  parentId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueOptionFields = z.infer<typeof queueOptionFieldsSchema>;

/** An option as the routes answer it: with its direct children, in menu order. */
export const queueOptionSchema = queueOptionFieldsSchema.extend({
  children: z.array(queueOptionFieldsSchema),
});
export type QueueOption = z.infer<typeof queueOptionSchema>;

/** The message of an option number that is not 1-10 digits. */
export const OPTION_DIGITS_MESSAGE = 'Digits only';

/** The spec's client sends the option as a number; stored as the text the contact types. */
const optionField = z
  .union([z.number().int().min(0).max(9_999_999_999), z.string()], { error: MSG.required })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .min(1, MSG.required)
      .max(10, MSG.tooLong)
      .regex(/^[0-9]+$/, OPTION_DIGITS_MESSAGE),
  );

/** The menu's first level: no parent, or the original client's -1 and 'null'. */
const parentField = z
  .union([z.null(), z.literal(-1), z.enum(['null', '-1', '']), positiveId])
  .transform((value) =>
    value === null || value === -1 || value === 'null' || value === '-1' || value === ''
      ? null
      : Number(value),
  );

export const queueOptionListQuerySchema = z.object({
  queueId: positiveId,
  /** Absent, -1 or 'null': the first level; an option's id: its children. */
  parentId: parentField.optional(),
});
export type QueueOptionListQuery = z.infer<typeof queueOptionListQuerySchema>;

const optionTexts = {
  title: boundedString(1, 100),
  message: z.string().max(10_000, MSG.tooLong).optional(),
  option: optionField,
};

export const queueOptionCreateSchema = z.object({
  queueId: positiveId,
  parentId: parentField.optional(),
  ...optionTexts,
});
export type QueueOptionCreate = z.infer<typeof queueOptionCreateSchema>;

/** The queue and the parent of an option do not change; the original client sends them anyway. */
export const queueOptionUpdateSchema = z.object(optionTexts).partial();
export type QueueOptionUpdate = z.infer<typeof queueOptionUpdateSchema>;
