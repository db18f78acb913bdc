import { z } from 'zod';
import { boundedString, emailField, MSG, passwordField, positiveId } from '../validation';

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const recurrenceSchema = z.enum(RECURRENCES);
/** Months added by '+ Vencimento' for each recurrence. */
export const RECURRENCE_MONTHS: Record<(typeof RECURRENCES)[number], number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

/** Brazilian phone as typed in the mask (99) 99999-9999: digits kept, 10 or 11 of them. */
export const phoneField = z
  .string({ error: MSG.required })
  .max(20, MSG.tooLong)
  .regex(/^[\d\s()+-]*$/, 'Invalid phone')
  .transform((phone) => phone.replace(/\D/g, ''))
  .pipe(z.string().min(10, MSG.tooShort).max(11, MSG.tooLong));

export const companyScheduleSchema = z.object({
  weekday: z.string().max(20),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^$/),
  endTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^$/),
});
export type CompanySchedule = z.infer<typeof companyScheduleSchema>;

export const companySchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  planId: z.number(),
  status: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: recurrenceSchema,
  schedules: z.array(companyScheduleSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** Public sign-up (POST /companies/cadastro). Trial dates and status are decided by the server. */
export const signupSchema = z.object({
  name: boundedString(2, 50),
  email: emailField,
  phone: phoneField,
  password: passwordField,
  planId: positiveId,
  recurrence: recurrenceSchema.optional(),
  dueDate: z.string().max(40).optional(),
  status: z.union([z.string().max(10), z.boolean()]).optional(),
  campaignsEnabled: z.boolean().optional(),
  /** The sign-up link's ?companyId=: who referred the visitor. It never places the new admin. */
  companyId: positiveId.optional(),
});
export type Signup = z.infer<typeof signupSchema>;

const dueDateField = z
  .union([z.iso.date(), z.iso.datetime({ offset: true }), z.null()])
  .optional()
  .transform((value) => (value ? value.slice(0, 10) : value));

export const companyCreateSchema = z.object({
  name: boundedString(2, 50),
  email: emailField,
  phone: z.string().max(20).optional().nullable(),
  planId: positiveId,
  status: z.boolean().optional(),
  dueDate: dueDateField,
  recurrence: recurrenceSchema.optional(),
  campaignsEnabled: z.boolean().optional(),
  /** When given, the company's first admin is created with the company email and this password. */
  password: passwordField.optional(),
});
export type CompanyCreate = z.infer<typeof companyCreateSchema>;

export const companyUpdateSchema = companyCreateSchema
  .omit({ password: true })
  .partial()
  .extend({ id: z.coerce.number().optional() });
export type CompanyUpdate = z.infer<typeof companyUpdateSchema>;

export const companySchedulesUpdateSchema = z.object({
  schedules: z.array(companyScheduleSchema).max(7),
});
