import { z } from 'zod';
import { idListQuery, listQuery } from '../query';
import { optionalRef } from '../tolerant';
import { dashboardDay } from './dashboard.schemas';

/*
 * The original client's report charts (its dashboard's lower half) and its reports screen
 * (/relatorios), answered from our own tables in the shapes that client reads. The charts take
 * the dashboard charts' query (`initialDate`, `finalDate`: days of the company's clock, both
 * included; its `companyId` ignored, the session's company decides).
 */

/**
 * GET /reports/appointmentsAtendent: the tickets each user closed in the period (every user,
 * 0 included) and the tickets created in it per queue (every queue, 0 included), fewest first
 * as the original orders its doughnuts.
 */
export const appointmentsAtendentSchema = z.object({
  appointmentsByAttendents: z.array(z.object({ user_name: z.string(), total_tickets: z.number() })),
  ticketsByQueues: z.array(z.object({ name: z.string(), total_tickets: z.number() })),
});
export type AppointmentsAtendent = z.infer<typeof appointmentsAtendentSchema>;

/**
 * GET /reports/rushHour: the tickets created in each hour of the day (0 to 23, on the company's
 * clock) over the period, every hour listed; the original client draws `message_hour` against
 * `message_count`.
 */
export const rushHourSchema = z.array(
  z.object({ message_hour: z.number(), message_count: z.number() }),
);
export type RushHour = z.infer<typeof rushHourSchema>;

/**
 * GET /reports/departamentRatings: the contacts' average rating (1 to 3, two decimals) of each
 * queue's tickets, over the ratings given in the period; queues without a rating are left out.
 */
export const departamentRatingsSchema = z.array(
  z.object({ name: z.string(), total_rate: z.number() }),
);
export type DepartamentRatings = z.infer<typeof departamentRatingsSchema>;

/** The statuses the reports screen filters by; `group` is the group conversations, any status. */
export const TICKET_REPORT_STATUSES = ['open', 'pending', 'closed', 'group'] as const;
export type TicketReportStatus = (typeof TICKET_REPORT_STATUSES)[number];

/** The most rows one page of the ticket report answers (its export asks for 9999999). */
export const TICKET_REPORT_MAX_PAGE_SIZE = 5000;
export const TICKET_REPORT_DEFAULT_PAGE_SIZE = 20;

const statusListQuery = listQuery(z.enum(TICKET_REPORT_STATUSES), TICKET_REPORT_STATUSES.length);

/**
 * GET /ticket/reports as the reports screen sends it: its lists as JSON text (`whatsappId`,
 * `users`, `queueIds`, `status`), the contact it picked (`""` for none), a ticket's id typed,
 * the days from `dateFrom` to `dateTo` (both included, on the company's clock), and the page.
 * A page size above the most one page answers is read as that most.
 */
export const ticketReportQuerySchema = z.object({
  contactId: optionalRef,
  ticketId: optionalRef,
  whatsappId: idListQuery.optional(),
  users: idListQuery.optional(),
  queueIds: idListQuery.optional(),
  status: statusListQuery.optional(),
  dateFrom: dashboardDay.optional(),
  dateTo: dashboardDay.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .default(TICKET_REPORT_DEFAULT_PAGE_SIZE)
    .transform((size) => Math.min(size, TICKET_REPORT_MAX_PAGE_SIZE)),
});
export type TicketReportQuery = z.infer<typeof ticketReportQuerySchema>;

/** The status as the reports screen colours it. */
export const TICKET_REPORT_STATUS_LABELS = {
  open: 'ABERTO',
  pending: 'PENDENTE',
  closed: 'FECHADO',
} as const;

export const ticketReportRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  whatsappName: z.string().nullable(),
  contactName: z.string(),
  userName: z.string().nullable(),
  queueName: z.string().nullable(),
  queueColor: z.string().nullable(),
  lastMessage: z.string(),
  status: z.enum(['ABERTO', 'PENDENTE', 'FECHADO']),
  /** dd/mm/yyyy hh:mm on the company's clock. */
  createdAt: z.string(),
  /** When it was closed (dd/mm/yyyy hh:mm); null while it is not. */
  closedAt: z.string().nullable(),
});
export type TicketReportRow = z.infer<typeof ticketReportRowSchema>;

/** One page, newest first, and how many tickets the filters match (`totalTickets.total`). */
export const ticketReportSchema = z.object({
  tickets: z.array(ticketReportRowSchema),
  totalTickets: z.object({ total: z.number() }),
});
export type TicketReport = z.infer<typeof ticketReportSchema>;
