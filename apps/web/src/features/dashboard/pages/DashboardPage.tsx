import AccessTimeIcon from '@mui/icons-material/AccessTime';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ForumIcon from '@mui/icons-material/Forum';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { PageHeader } from '../../../app/components/PageHeader';
import { useDashboard } from '../api';
import { AttendantsTable } from '../components/AttendantsTable';
import { CounterCard } from '../components/CounterCard';
import { TicketsPerDayChart, TicketsPerUserChart } from '../components/DashboardCharts';
import { DashboardFilters } from '../components/DashboardFilters';
import { chartRange, dashboardQuery, formatMinutes, initialFilter, today } from '../period';

/** The admin's landing page: attendance figures of a period (spec core 2, 3 and 9). */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { zone } = useClock();
  const day = useMemo(() => today(zone), [zone]);
  const [filter, setFilter] = useState(() => initialFilter(day));
  const query = dashboardQuery(filter);
  const range = chartRange(filter, day);
  const dashboard = useDashboard(query);
  const counters = dashboard.data?.counters;
  // no figure before the answer: the card shows a skeleton, never a dash
  const figure = (
    value: number | undefined,
    format: (value: number) => string | number = String,
  ) => (value === undefined ? undefined : format(value));

  // The six cards (spec core 2): key of the label, icon, colour and figure.
  const cards = [
    [
      'inConversation',
      <ForumIcon key="icon" />,
      'primary.main',
      figure(counters?.supportHappening),
    ],
    [
      'waiting',
      <HourglassEmptyIcon key="icon" />,
      'warning.main',
      figure(counters?.supportPending),
    ],
    ['finished', <CheckCircleIcon key="icon" />, 'success.main', figure(counters?.supportFinished)],
    ['newContacts', <PersonAddIcon key="icon" />, 'info.main', figure(counters?.leads)],
    [
      'avgSupportTime',
      <AccessTimeIcon key="icon" />,
      'secondary.main',
      figure(counters?.avgSupportTime, formatMinutes),
    ],
    [
      'avgWaitTime',
      <HourglassBottomIcon key="icon" />,
      'error.main',
      figure(counters?.avgWaitTime, formatMinutes),
    ],
  ] as const;

  return (
    <>
      <PageHeader title={t('title')} />
      <DashboardFilters filter={filter} onChange={setFilter} />
      {query === null && (
        <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
          {t('filter.required')}
        </Alert>
      )}
      {dashboard.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('loadError')}
        </Alert>
      )}
      <Box sx={{ height: 4, mb: 1 }}>
        {dashboard.isFetching && <LinearProgress aria-label={t('loading')} />}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))',
        }}
      >
        {cards.map(([key, icon, color, value]) => (
          <CounterCard
            key={key}
            icon={icon}
            color={color}
            label={t(`counters.${key}`)}
            value={value}
          />
        ))}
      </Box>
      {/* the charts keep their size loading or not; the attendants, whose number is unknown
          until they arrive, come last so that their rows move nothing already drawn */}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <TicketsPerUserChart range={range} />
        <TicketsPerDayChart range={range} />
      </Box>
      <AttendantsTable
        attendants={dashboard.data?.attendants}
        loading={dashboard.isPending && query !== null}
      />
    </>
  );
}
