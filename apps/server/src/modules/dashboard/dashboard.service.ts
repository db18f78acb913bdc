import type {
  Dashboard,
  DashboardChartQuery,
  DashboardQuery,
  TicketsDay,
  TicketsUsers,
} from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import {
  dashboardFigures,
  ticketsPerDay,
  ticketsPerHour,
  ticketsPerUser,
} from './dashboard.repository';

const total = (rows: { total: number }[]) => rows.reduce((sum, row) => sum + row.total, 0);

/** The attendance figures of the dashboard (spec core 2 and 3), read only. */
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
}
