import { z } from 'zod';
import { boundedString, emailField, MSG, passwordField, positiveId } from '../validation';

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export const recurrenceSchema = z.enum(RECURRENCES);
export type Recurrence = z.infer<typeof recurrenceSchema>;
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

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The day names the original product stores and its clients show (`weekday`). */
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  monday: 'Segunda-feira',
  tuesday: 'Terça-feira',
  wednesday: 'Quarta-feira',
  thursday: 'Quinta-feira',
  friday: 'Sexta-feira',
  saturday: 'Sábado',
  sunday: 'Domingo',
};

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A day whose start and end are both 00:00 is closed (the default Sunday). */
export const CLOSED_TIME = '00:00';
export const isScheduleTime = (value: string) => HH_MM.test(value);

const dayTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^$/, MSG.invalidTime);

/**
 * A day of opening hours: one span, `startTime` to `endTime`, which decides when it is open. The
 * original client's form reads and sends the day as two periods (`startTimeA`..`endTimeA`,
 * `startTimeB`..`endTimeB`); they are kept as it sent them, and answered (see withTwoPeriods).
 */
export const companyScheduleSchema = z.object({
  weekday: z.string().max(20),
  weekdayEn: z.enum(WEEKDAYS),
  startTime: dayTime,
  endTime: dayTime,
  startTimeA: dayTime.optional(),
  endTimeA: dayTime.optional(),
  startTimeB: dayTime.optional(),
  endTimeB: dayTime.optional(),
});
export type CompanySchedule = z.infer<typeof companyScheduleSchema>;

const TWO_PERIODS = ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'] as const;

/**
 * A day as both clients read it: our span, and the original's two periods, as that client last
 * sent them, else the span as its first period and the second unused (00:00 to 00:00).
 */
export function withTwoPeriods(day: CompanySchedule): CompanySchedule {
  if (TWO_PERIODS.some((field) => day[field] !== undefined)) {
    return { ...day, ...Object.fromEntries(TWO_PERIODS.map((field) => [field, day[field] ?? ''])) };
  }
  return {
    ...day,
    startTimeA: day.startTime,
    endTimeA: day.endTime,
    startTimeB: CLOSED_TIME,
    endTimeB: CLOSED_TIME,
  };
}

/** A day in our shape only: what our own forms edit and send. */
export const oneSpan = ({ weekday, weekdayEn, startTime, endTime }: CompanySchedule) => ({
  weekday,
  weekdayEn,
  startTime,
  endTime,
});

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
  billingName: z.string().nullable(),
  addressZipCode: z.string().nullable(),
  addressStreet: z.string().nullable(),
  addressState: z.string().nullable(),
  addressCity: z.string().nullable(),
  addressDistrict: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** A row of GET /companies/list: the company with its plan's name and price (the tab shows them). */
export const companyWithPlanNameSchema = companySchema.extend({
  plan: z.object({ id: z.number(), name: z.string(), value: z.number() }).nullable(),
});
export type CompanyWithPlanName = z.infer<typeof companyWithPlanNameSchema>;

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

/** A billing or address field of the company form: '' is nothing. */
const billingText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, MSG.tooLong)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

/** The company's billing name and address, as the checkout and the super user's form keep them. */
export const COMPANY_BILLING_FIELDS = [
  'billingName',
  'addressZipCode',
  'addressStreet',
  'addressState',
  'addressCity',
  'addressDistrict',
] as const;
export type CompanyBillingField = (typeof COMPANY_BILLING_FIELDS)[number];
const billingFields = {
  billingName: billingText(100),
  addressZipCode: billingText(20),
  addressStreet: billingText(200),
  addressState: billingText(50),
  addressCity: billingText(100),
  addressDistrict: billingText(100),
};

export const companyCreateSchema = z.object({
  name: boundedString(2, 50),
  email: emailField,
  phone: z.string().max(20).optional().nullable(),
  planId: positiveId,
  status: z.boolean().optional(),
  dueDate: dueDateField,
  recurrence: recurrenceSchema.optional(),
  campaignsEnabled: z.boolean().optional(),
  ...billingFields,
  /** When given, the company's first admin is created with the company email and this password. */
  password: passwordField.optional(),
});
export type CompanyCreate = z.infer<typeof companyCreateSchema>;

export const companyUpdateSchema = companyCreateSchema
  .omit({ password: true })
  .partial()
  .extend({ id: z.coerce.number().optional() });
export type CompanyUpdate = z.infer<typeof companyUpdateSchema>;

const DEFAULT_HOURS: Record<Weekday, [start: string, end: string]> = {
  monday: ['08:00', '18:00'],
  tuesday: ['08:00', '18:00'],
  wednesday: ['08:00', '18:00'],
  thursday: ['08:00', '18:00'],
  friday: ['08:00', '18:00'],
  saturday: ['08:00', '12:00'],
  sunday: [CLOSED_TIME, CLOSED_TIME],
};

/** The default opening hours (spec core 9), for companies and queues that set none. */
export const DEFAULT_SCHEDULES: CompanySchedule[] = WEEKDAYS.map((weekdayEn) => ({
  weekday: WEEKDAY_NAMES[weekdayEn],
  weekdayEn,
  startTime: DEFAULT_HOURS[weekdayEn][0],
  endTime: DEFAULT_HOURS[weekdayEn][1],
}));

/**
 * What is wrong with one day's hours, on which field: a time without the other (both empty is a
 * closed day, as the original client sends it), or an end not after the start (both 00:00 is
 * closed too). Undefined when the day is right; the times themselves are checked as HH:MM first.
 */
export function scheduleDayProblem(
  day: Pick<CompanySchedule, 'startTime' | 'endTime'>,
): { field: 'startTime' | 'endTime'; message: string } | undefined {
  const { startTime, endTime } = day;
  if (!startTime && !endTime) return undefined;
  if (!startTime) return { field: 'startTime', message: MSG.required };
  if (!endTime) return { field: 'endTime', message: MSG.required };
  if (!isScheduleTime(startTime) || !isScheduleTime(endTime)) return undefined;
  if (startTime === CLOSED_TIME && endTime === CLOSED_TIME) return undefined;
  return startTime < endTime ? undefined : { field: 'endTime', message: MSG.endBeforeStart };
}

const PERIOD_TIME = z.string().max(5).optional();
const twoPeriodDaySchema = z.object({
  startTimeA: PERIOD_TIME,
  endTimeA: PERIOD_TIME,
  startTimeB: PERIOD_TIME,
  endTimeB: PERIOD_TIME,
});

/**
 * The original client's day of two periods (`startTimeA`..`endTimeA`, `startTimeB`..`endTimeB`,
 * a period left blank or 00:00 to 00:00 unused) read as our day of one span: from the first used
 * period's start to the last one's end, the break between them open; no period used is a closed
 * day. A day without any of those fields is ours, left as it is.
 */
function fromTwoPeriods(day: unknown): unknown {
  if (typeof day !== 'object' || day === null) return day;
  const parsed = twoPeriodDaySchema.safeParse(day);
  if (!parsed.success || !Object.values(parsed.data).some((time) => time !== undefined)) {
    return day;
  }
  const { startTimeA, endTimeA, startTimeB, endTimeB } = parsed.data;
  const periods = [
    [startTimeA, endTimeA],
    [startTimeB, endTimeB],
  ].filter(([start, end]) => (start || end) && !(start === CLOSED_TIME && end === CLOSED_TIME));
  const first = periods[0];
  const last = periods.at(-1);
  return { ...day, startTime: first?.[0] ?? '', endTime: last?.[1] ?? '' };
}

/**
 * A whole week of hours as a client sends it: each of the seven days once, in any order, the day
 * name optional. It answers the week Monday first, each day under its own name and a closed day
 * as 00:00 to 00:00, so readers of the hours meet one shape only.
 */
export const weekSchedulesSchema = z
  .array(
    z.preprocess(
      fromTwoPeriods,
      companyScheduleSchema.extend({ weekday: z.string().max(100).optional() }),
    ),
  )
  .max(WEEKDAYS.length, MSG.everyWeekday)
  .superRefine((days, ctx) => {
    const seen = new Set(days.map((day) => day.weekdayEn));
    if (seen.size !== days.length || seen.size !== WEEKDAYS.length) {
      ctx.addIssue({ code: 'custom', message: MSG.everyWeekday });
    }
    days.forEach((day, index) => {
      const problem = scheduleDayProblem(day);
      if (problem)
        ctx.addIssue({ code: 'custom', path: [index, problem.field], message: problem.message });
    });
  })
  .transform((days) =>
    WEEKDAYS.map((weekdayEn): CompanySchedule => {
      const day = days.find((entry) => entry.weekdayEn === weekdayEn)!;
      const closed = !day.startTime && !day.endTime;
      // The original's two periods, when it sent them, are kept as sent.
      return {
        ...day,
        weekday: WEEKDAY_NAMES[weekdayEn],
        startTime: closed ? CLOSED_TIME : day.startTime,
        endTime: closed ? CLOSED_TIME : day.endTime,
      };
    }),
  );

export const companySchedulesUpdateSchema = z.object({ schedules: weekSchedulesSchema });
export type CompanySchedulesUpdate = z.infer<typeof companySchedulesUpdateSchema>;
