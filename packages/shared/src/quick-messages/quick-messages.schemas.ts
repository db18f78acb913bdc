import { z } from 'zod';
import { MSG, positiveId } from '../validation';

export const quickMessageSchema = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  /** Signed, short-lived address of the attached file; null without one. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  isMedia: z.boolean(),
  geral: z.boolean(),
  /** The queue whose agents share it (beside the company's and the author's own); null for none. */
  queueId: z.number().nullable(),
  userId: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QuickMessage = z.infer<typeof quickMessageSchema>;

const quickMessageFields = {
  shortcode: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.tooLong),
  message: z.string().max(10_000, MSG.tooLong).optional(),
  geral: z.boolean().optional(),
  /** A queue of the company: its agents see the reply ('' or null: none). */
  queueId: z.preprocess((value) => (value === '' ? null : value), positiveId.nullable().optional()),
  // Sent by the spec's client; the file is set through /media-upload.
  isMedia: z.boolean().optional(),
  mediaPath: z.string().max(2000).nullable().optional(),
  mediaName: z.string().max(255).nullable().optional(),
  /** Sent by the spec's client (the original's form holds `true`); not kept. */
  status: z.union([z.string().max(20), z.boolean()]).optional(),
  companyId: z.coerce.number().int().optional(),
  userId: positiveId.nullable().optional(),
};

export const quickMessageCreateSchema = z.object(quickMessageFields);
export type QuickMessageCreate = z.infer<typeof quickMessageCreateSchema>;
export const quickMessageUpdateSchema = z.object({
  ...quickMessageFields,
  shortcode: quickMessageFields.shortcode.optional(),
});
export type QuickMessageUpdate = z.infer<typeof quickMessageUpdateSchema>;

export const quickMessageListQuerySchema = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  userId: positiveId.optional(),
  companyId: z.coerce.number().int().optional(),
});
export type QuickMessageListQuery = z.infer<typeof quickMessageListQuerySchema>;

export const quickMessagesPageSchema = z.object({
  records: z.array(quickMessageSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

export const quickMessageSimpleListQuerySchema = z.object({
  companyId: z.coerce.number().int().optional(),
  userId: positiveId.optional(),
});

/** Text fields of POST /quick-messages/:id/media-upload (the file comes as `file`). */
export const quickMessageMediaFormSchema = z.object({
  typeArch: z.string().max(50).optional(),
});
