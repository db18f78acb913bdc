import { z } from 'zod';
import { boundedString, numberInput } from '../validation';

export const PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];

const flags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
  PlanFlag,
  z.ZodBoolean
>;

export const planSchema = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  value: z.number(),
  ...flags,
});
export type Plan = z.infer<typeof planSchema>;

// '' must not read as 0: a limit of 0 means unlimited.
const limit = numberInput.pipe(z.number().int().min(0).max(100_000));

export const planCreateSchema = z.object({
  name: boundedString(2, 50),
  users: limit,
  connections: limit,
  queues: limit,
  value: numberInput.pipe(z.number().min(0).max(1_000_000)),
  ...(Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, z.boolean().optional()])) as Record<
    PlanFlag,
    z.ZodOptional<z.ZodBoolean>
  >),
});
export type PlanCreate = z.infer<typeof planCreateSchema>;
export const planUpdateSchema = planCreateSchema
  .partial()
  .extend({ id: z.coerce.number().optional() });
