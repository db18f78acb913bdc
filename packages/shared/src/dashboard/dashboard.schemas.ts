import { z } from 'zod';
import { dayQuery } from '../query';

/** The spec's message when the dashboard is asked with no period (core 5). */
export const DASHBOARD_FILTER_MESSAGE = 'Parametrize o filtro';

/** The period choices of the dashboard, in days (spec core 9). */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;

/** A calendar day PostgreSQL can hold as a date (years 1 to 9999). */
export const dashboardDay = dayQuery.refine((day) => !day.startsWith('0000'), 'Invalid date');

/**
 * GET /dashboard: the last `days` calendar days (today included), or the days from `date_from`
 * to `date_to` (either may be left open). Days are the company's, in its time zone.
 */
export const dashboardQuerySchema = z
  .object({
    days: z.coerce.number().int().min(1).max(3650).optional(),
    date_from: dashboardDay.optional(),
    date_to: dashboardDay.optional(),
  })
  .refine(
    (query) =>
      query.days !== undefined || query.date_from !== undefined || query.date_to !== undefined,
    { message: DASHBOARD_FILTER_MESSAGE },
  );
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const dashboardCountersSchema = z.object({
  /** Open now. */
  supportHappening: z.number(),
  /** Waiting now. */
  supportPending: z.number(),
  /** Closed in the period. */
  supportFinished: z.number(),
  /** Contacts created in the period. */
  leads: z.number(),
  /** Minutes from taken to closed, over the tickets closed in the period (0 when none). */
  avgSupportTime: z.number(),
  /** Minutes from created to taken, over the tickets closed in the period (0 when none). */
  avgWaitTime: z.number(),
});
export type DashboardCounters = z.infer<typeof dashboardCountersSchema>;

export const dashboardAttendantSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The contacts' average rating (1 to 3) given in the period; null when none. */
  rating: z.number().nullable(),
  avgSupportTime: z.number(),
  /** Tickets the attendant closed in the period. */
  tickets: z.number(),
  online: z.boolean(),
});
export type DashboardAttendant = z.infer<typeof dashboardAttendantSchema>;

export const dashboardSchema = z.object({
  counters: dashboardCountersSchema,
  attendants: z.array(dashboardAttendantSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** The charts' period, as the original client sends it (its `companyId` is ignored). */
export const dashboardChartQuerySchema = z.object({
  initialDate: dashboardDay,
  finalDate: dashboardDay,
});
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

/** Tickets closed by each user in the period (every user, 0 included). */
export const ticketsUsersSchema = z.object({
  data: z.array(z.object({ name: z.string(), quantidade: z.number() })),
  count: z.number(),
});
export type TicketsUsers = z.infer<typeof ticketsUsersSchema>;

/**
 * Tickets created per day of the period (`data` as dd/mm/yyyy), or per hour (`horario`, 0 to
 * 23) when the period is one day; `count` is their total.
 */
export const ticketsDaySchema = z.object({
  data: z.array(
    z.union([
      z.object({ horario: z.number(), total: z.number() }),
      z.object({ data: z.string(), total: z.number() }),
    ]),
  ),
  count: z.number(),
});
export type TicketsDay = z.infer<typeof ticketsDaySchema>;
