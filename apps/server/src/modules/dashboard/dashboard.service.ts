import {
  type AppointmentsAtendent,
  type Dashboard,
  type DashboardChartQuery,
  type DashboardQuery,
  type DepartamentRatings,
  type RushHour,
  TICKET_REPORT_STATUS_LABELS,
  type TicketReport,
  type TicketReportQuery,
  type TicketsDay,
  type TicketsUsers,
} from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import {
  dashboardFigures,
  ratingsPerQueue,
  ticketReport,
  ticketsPerDay,
  ticketsPerHour,
  ticketsPerQueue,
  ticketsPerUser,
} from './dashboard.repository';

const total = (rows: { total: number }[]) => rows.reduce((sum, row) => sum + row.total, 0);
/** Fewest first, as the original's doughnuts list them (then by name, which the rows come in). */
const fewestFirst = <T extends { total_tickets: number }>(rows: T[]) =>
  rows.sort((a, b) => a.total_tickets - b.total_tickets);
/** A list filter: an empty list filters nothing. */
const listed = (ids: number[] | undefined) => (ids?.length ? ids : undefined);

/** The attendance figures of the dashboard (spec core 2 and 3) and its reports, read only. */
export class DashboardService {
  get(ctx: RequestContext, query: DashboardQuery): Promise<Dashboard> {
    return dashboardFigures(tenantDb(ctx), {
      days: query.days,
      from: query.date_from,
      to: query.date_to,
    });
  }

  async ticketsUsers(ctx: RequestContext, query: DashboardChartQuery): Promise<TicketsUsers> {
    const data = await ticketsPerUser(tenantDb(ctx), query.initialDate, query.finalDate);
    return { data, count: data.reduce((sum, row) => sum + row.quantidade, 0) };
  }

  /** Per hour when the period is one day, else per day. */
  async ticketsDay(ctx: RequestContext, query: DashboardChartQuery): Promise<TicketsDay> {
    const db = tenantDb(ctx);
    const data =
      query.initialDate === query.finalDate
        ? await ticketsPerHour(db, query.initialDate)
        : await ticketsPerDay(db, query.initialDate, query.finalDate);
    return { data, count: total(data) };
  }

  /** Tickets each user closed and tickets created per queue, in the period. */
  async appointmentsAtendent(
    ctx: RequestContext,
    query: DashboardChartQuery,
  ): Promise<AppointmentsAtendent> {
    const db = tenantDb(ctx);
    const [users, queues] = await Promise.all([
      ticketsPerUser(db, query.initialDate, query.finalDate),
      ticketsPerQueue(db, query.initialDate, query.finalDate),
    ]);
    return {
      appointmentsByAttendents: fewestFirst(
        users.map((row) => ({ user_name: row.name, total_tickets: row.quantidade })),
      ),
      ticketsByQueues: queues.map((row) => ({ name: row.name, total_tickets: row.total })),
    };
  }

  /** Tickets created in each hour of the day over the period. */
  async rushHour(ctx: RequestContext, query: DashboardChartQuery): Promise<RushHour> {
    const rows = await ticketsPerHour(tenantDb(ctx), query.initialDate, query.finalDate);
    return rows.map((row) => ({ message_hour: row.horario, message_count: row.total }));
  }

  async departamentRatings(
    ctx: RequestContext,
    query: DashboardChartQuery,
  ): Promise<DepartamentRatings> {
    const rows = await ratingsPerQueue(tenantDb(ctx), query.initialDate, query.finalDate);
    return rows.map((row) => ({ name: row.name, total_rate: row.rate }));
  }

  /** The reports screen's page of tickets, filtered, and how many match. */
  async ticketReport(ctx: RequestContext, query: TicketReportQuery): Promise<TicketReport> {
    const statuses = query.status?.length ? query.status : undefined;
    const { rows, total } = await ticketReport(
      tenantDb(ctx),
      {
        from: query.dateFrom,
        to: query.dateTo,
        contactId: query.contactId ?? undefined,
        ticketId: query.ticketId ?? undefined,
        whatsappIds: listed(query.whatsappId),
        userIds: listed(query.users),
        queueIds: listed(query.queueIds),
        statuses: statuses?.filter((status) => status !== 'group'),
        groups: statuses?.includes('group') ?? false,
      },
      { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
    );
    return {
      tickets: rows.map((row) => ({ ...row, status: TICKET_REPORT_STATUS_LABELS[row.status] })),
      totalTickets: { total },
    };
  }
}
