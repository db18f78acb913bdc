import type { TicketsDay } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { useTicketsDay, useTicketsUsers } from '../api';
import type { ChartRange } from '../period';
import { ChartDrawing } from './ChartDrawing';
import { ChartPanel, type ChartRow } from './ChartPanel';

const hour = (value: number) => `${String(value).padStart(2, '0')}:00`;

/** Each bucket of GET /dashboard/ticketsDay as a label and its total. */
export function dayRows(data: TicketsDay['data']): ChartRow[] {
  return data.map((item) =>
    'horario' in item
      ? { label: hour(item.horario), value: item.total }
      : { label: item.data.slice(0, 5), value: item.total },
  );
}

/** Tickets each attendant closed in the period, as bars. */
export function TicketsPerUserChart({ range }: { range: ChartRange | null }) {
  const { t } = useTranslation('dashboard');
  const query = useTicketsUsers(range);
  const rows = query.data?.data.map((item) => ({ label: item.name, value: item.quantidade }));
  return (
    <ChartPanel
      title={t('charts.perUser.title')}
      description={t('charts.perUser.description')}
      columns={[t('charts.perUser.user'), t('charts.perUser.tickets')]}
      rows={rows}
      loading={query.isPending}
      errorText={query.isError ? t('charts.perUser.error') : undefined}
    >
      <ChartDrawing kind="bar" rows={rows} valueName={t('charts.perUser.tickets')} />
    </ChartPanel>
  );
}

/** Tickets created on each day of the period (each hour of a one-day period), as a line. */
export function TicketsPerDayChart({ range }: { range: ChartRange | null }) {
  const { t } = useTranslation('dashboard');
  const query = useTicketsDay(range);
  const rows = query.data ? dayRows(query.data.data) : undefined;
  const key = query.data?.data.some((item) => 'horario' in item) ? 'ByHour' : '';
  return (
    <ChartPanel
      title={t(`charts.perDay.title${key}`)}
      subtitle={query.data ? t('charts.perDay.total', { total: query.data.count }) : undefined}
      description={t(`charts.perDay.description${key}`)}
      columns={[t(key ? 'charts.perDay.hour' : 'charts.perDay.day'), t('charts.perDay.tickets')]}
      rows={rows}
      loading={query.isPending}
      errorText={query.isError ? t('charts.perDay.error') : undefined}
    >
      <ChartDrawing kind="line" rows={rows} valueName={t('charts.perDay.tickets')} />
    </ChartPanel>
  );
}
