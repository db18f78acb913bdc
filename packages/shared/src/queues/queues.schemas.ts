import { z } from 'zod';
import { companyScheduleSchema, weekSchedulesSchema } from '../companies/companies.schemas';
import { optionalRef, optionalWholeNumber } from '../tolerant';
import { boundedString } from '../validation';

export const queueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  /** The spec's queue token: answered to the company's admins only, never emitted. */
  token: z.string().nullable().optional(),
  orderQueue: z.number().nullable(),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  schedules: z.array(companyScheduleSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Queue = z.infer<typeof queueSchema>;

export const queueCreateSchema = z.object({
  name: boundedString(2, 50),
  color: boundedString(3, 9),
  greetingMessage: z.string().max(10_000).optional(),
  /** The spec's field name (sic), as the original client sends it. */
  complationMessage: z.string().max(10_000).optional(),
  outOfHoursMessage: z.string().max(10_000).optional(),
  ratingMessage: z.string().max(10_000).optional(),
  token: z.string().max(200).nullable().optional(),
  // The original client sends the order as typed ("3", "" for none) and `""` for no integration.
  orderQueue: optionalWholeNumber(0, 10_000),
  integrationId: optionalRef,
  promptId: optionalRef,
  /** The queue's opening hours: the seven days, or none (the queue never closes). */
  schedules: z.union([z.array(companyScheduleSchema).length(0), weekSchedulesSchema]).optional(),
});
export type QueueCreate = z.infer<typeof queueCreateSchema>;
export const queueUpdateSchema = queueCreateSchema.partial();
