import { dayInZone } from '../../app/clock';

export type FilterType = 'date' | 'period';

export interface DashboardFilter {
  type: FilterType;
  /** YYYY-MM-DD or empty. */
  dateFrom: string;
  dateTo: string;
  /** One of DASHBOARD_PERIODS, or 0 for none chosen. */
  days: number;
}

export interface ChartRange {
  initialDate: string;
  finalDate: string;
}

/** Today on the company's clock, as YYYY-MM-DD. */
export const today = (timeZone: string, now = new Date()): string => dayInZone(now, timeZone);

/** The day `days` before `day` (both YYYY-MM-DD). */
export function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** As the original product starts: the current month so far. */
export function initialFilter(todayDay: string): DashboardFilter {
  return { type: 'date', dateFrom: `${todayDay.slice(0, 8)}01`, dateTo: todayDay, days: 0 };
}

/** GET /dashboard's query for the filter; null when it names no period ('Parametrize o filtro'). */
export function dashboardQuery(
  filter: DashboardFilter,
): { days: number } | { date_from?: string; date_to?: string } | null {
  if (filter.type === 'period') return filter.days > 0 ? { days: filter.days } : null;
  if (!filter.dateFrom && !filter.dateTo) return null;
  return {
    ...(filter.dateFrom ? { date_from: filter.dateFrom } : {}),
    ...(filter.dateTo ? { date_to: filter.dateTo } : {}),
  };
}

/** The same days for the charts, which need both ends. */
export function chartRange(filter: DashboardFilter, todayDay: string): ChartRange | null {
  if (filter.type === 'period') {
    return filter.days > 0
      ? { initialDate: daysBefore(todayDay, filter.days - 1), finalDate: todayDay }
      : null;
  }
  if (!filter.dateFrom && !filter.dateTo) return null;
  const finalDate = filter.dateTo || todayDay;
  return { initialDate: filter.dateFrom || finalDate, finalDate };
}

/** Minutes as "1h 05m" (or "33m"). */
export function formatMinutes(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  return hours > 0 ? `${hours}h ${String(rest).padStart(2, '0')}m` : `${rest}m`;
}
