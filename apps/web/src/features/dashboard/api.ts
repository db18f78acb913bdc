import { dashboardContract as dashboard, type QueryOf } from '@atendi/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';
import type { ChartRange } from './period';

export const dashboardKeys = {
  all: ['dashboard'] as const,
  figures: (query: QueryOf<typeof dashboard.get>) => ['dashboard', 'figures', query] as const,
  chart: (name: string, range: ChartRange) => ['dashboard', name, range] as const,
};

/** The counters and attendants of a period; nothing is asked while the filter has no period. */
export function useDashboard(query: QueryOf<typeof dashboard.get> | null) {
  return useQuery({
    queryKey: dashboardKeys.figures(query ?? {}),
    queryFn: ({ signal }) => api.call(dashboard.get, { query: query ?? {}, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    // the page says it failed in place
    meta: { silent: true },
  });
}

/** The charts show their own failure message in place (spec core 8). */
const chartQuery = <T>(
  name: string,
  range: ChartRange | null,
  load: (signal: AbortSignal) => Promise<T>,
) => ({
  queryKey: dashboardKeys.chart(name, range ?? { initialDate: '', finalDate: '' }),
  queryFn: ({ signal }: { signal: AbortSignal }) => load(signal),
  enabled: range !== null,
  placeholderData: keepPreviousData,
  meta: { silent: true },
});

export function useTicketsUsers(range: ChartRange | null) {
  return useQuery(
    chartQuery('ticketsUsers', range, (signal) =>
      api.call(dashboard.ticketsUsers, { query: range!, signal }),
    ),
  );
}

export function useTicketsDay(range: ChartRange | null) {
  return useQuery(
    chartQuery('ticketsDay', range, (signal) =>
      api.call(dashboard.ticketsDay, { query: range!, signal }),
    ),
  );
}
