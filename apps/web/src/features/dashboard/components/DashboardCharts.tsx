import type { TicketsDay } from '@atendi/shared';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useTicketsDay, useTicketsUsers } from '../api';
import type { ChartRange } from '../period';
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

function Axes() {
  return (
    <>
      <CartesianGrid strokeDasharray="3 3" />
      <YAxis allowDecimals={false} width={32} />
      <Tooltip />
    </>
  );
}

/** Tickets each attendant closed in the period, as bars. */
export function TicketsPerUserChart({ range }: { range: ChartRange | null }) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
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
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          accessibilityLayer={false}
          data={rows}
          margin={{ top: 8, right: 8, left: 0, bottom: 0 }}
        >
          <Axes />
          <XAxis dataKey="label" interval="preserveStartEnd" tick={{ fontSize: 12 }} />
          <Bar
            dataKey="value"
            name={t('charts.perUser.tickets')}
            fill={theme.palette.primary.main}
            radius={[4, 4, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}

/** Tickets created on each day of the period (each hour of a one-day period), as a line. */
export function TicketsPerDayChart({ range }: { range: ChartRange | null }) {
  const { t } = useTranslation('dashboard');
  const theme = useTheme();
  const query = useTicketsDay(range);
  const rows = query.data ? dayRows(query.data.data) : undefined;
  const byHour = query.data?.data.some((item) => 'horario' in item) ?? false;
  return (
    <ChartPanel
      title={t(byHour ? 'charts.perDay.titleByHour' : 'charts.perDay.title')}
      subtitle={query.data ? t('charts.perDay.total', { total: query.data.count }) : undefined}
      description={t(byHour ? 'charts.perDay.descriptionByHour' : 'charts.perDay.description')}
      columns={[t(byHour ? 'charts.perDay.hour' : 'charts.perDay.day'), t('charts.perDay.tickets')]}
      rows={rows}
      loading={query.isPending}
      errorText={query.isError ? t('charts.perDay.error') : undefined}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart
          accessibilityLayer={false}
          data={rows}
          margin={{ top: 8, right: 8, left: 0, bottom: 0 }}
        >
          <Axes />
          <XAxis dataKey="label" interval="preserveStartEnd" tick={{ fontSize: 12 }} />
          <Line
            type="monotone"
            dataKey="value"
            name={t('charts.perDay.tickets')}
            stroke={theme.palette.secondary.main}
            strokeWidth={2}
            dot={rows !== undefined && rows.length <= 31}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartPanel>
  );
}
