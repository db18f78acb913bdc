import { z } from 'zod';

/** Query of the spec's searchable, infinite-scroll lists. */
export const listQuerySchema = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const idParamsSchema = z.strictObject({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

/** Tolerates the `companyId` hint old clients send; the server always uses the session's company. */
export const companyHintQuerySchema = z.object({
  companyId: z.coerce.number().int().optional(),
});
