import { z } from 'zod';
import { boundedString } from '../validation';

export const helpSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  video: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Help = z.infer<typeof helpSchema>;

export const helpCreateSchema = z.object({
  title: boundedString(2, 100),
  description: z.string().max(5_000).optional(),
  /** The video's code on the video host (not a URL). */
  video: z
    .string()
    .max(100)
    .regex(/^[\w-]*$/, 'Invalid video code')
    .optional(),
});
export type HelpCreate = z.infer<typeof helpCreateSchema>;
export const helpUpdateSchema = helpCreateSchema
  .partial()
  .extend({ id: z.coerce.number().optional() });
