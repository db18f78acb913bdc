import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { unsetIfEmpty } from '../tolerant';
import { MSG, positiveId } from '../validation';

/** The spec's message for a short tag name. */
export const SHORT_MESSAGE = 'Mensagem muito curta';

export const tagSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof tagSchema>;

export const tagWithCountSchema = tagSchema.extend({ ticketsCount: z.number() });

const tagFields = {
  name: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(3, SHORT_MESSAGE)
    .max(50, MSG.tooLong),
  /** The original's tag dialog sends "" when no colour was picked: the default colour. */
  color: unsetIfEmpty(
    z
      .string()
      .trim()
      .regex(/^#[0-9a-fA-F]{3,8}$/, 'Invalid color'),
  ).optional(),
  /** 1 shows the tag as a kanban column; old clients send a boolean. */
  kanban: z
    .union([z.boolean(), z.number().int().min(0).max(1)])
    .transform((value) => Number(value))
    .optional(),
};

export const tagCreateSchema = z.object(tagFields);
export type TagCreate = z.infer<typeof tagCreateSchema>;
export const tagUpdateSchema = z.object({ ...tagFields, name: tagFields.name.optional() });
export type TagUpdate = z.infer<typeof tagUpdateSchema>;

export const tagsPageSchema = z.object({
  tags: z.array(tagWithCountSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** GET /tags/list: every tag (by name with `searchParam`); the spec's client also sends a page. */
export const tagListQuerySchema = z.object({
  ...listQuerySchema.shape,
  kanban: z.coerce.number().int().min(0).max(1).optional(),
  companyId: z.coerce.number().int().optional(),
});

/** POST /tags/sync: the ticket's tags become exactly these. */
export const tagSyncSchema = z.object({
  ticketId: positiveId,
  tags: z.array(z.object({ id: positiveId })).max(100),
});
export type TagSync = z.infer<typeof tagSyncSchema>;
