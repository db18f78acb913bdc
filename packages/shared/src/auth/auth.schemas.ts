import { z } from 'zod';
import { planSchema } from '../plans/plans.schemas';
import { settingSchema } from '../settings/settings.schemas';
import { allTicketSchema, profileSchema, userQueueSchema } from '../users/users.schemas';
import { MSG } from '../validation';

export const loginSchema = z.object({
  email: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(254),
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
});
export type Login = z.infer<typeof loginSchema>;

export const sessionCompanySchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  dueDate: z.string().nullable(),
  trialExpiration: z.string().nullable(),
  status: z.boolean(),
  planId: z.number(),
  plan: planSchema,
  settings: z.array(settingSchema),
});

export const sessionUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  super: z.boolean(),
  allTicket: allTicketSchema,
  companyId: z.number(),
  whatsappId: z.number().nullable(),
  queues: z.array(userQueueSchema),
  company: sessionCompanySchema,
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z.object({
  token: z.string(),
  user: sessionUserSchema,
  /** True when the company's due date is fewer than 5 days away ('Sua assinatura vence em N dia(s)'). */
  dueDateWarning: z.boolean(),
  daysToDueDate: z.number().nullable(),
});
export type Session = z.infer<typeof sessionSchema>;
