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
import { useSessionUser } from '../../../app/auth';
import { PageHeader } from '../../../app/components/PageHeader';
import { useDashboard } from '../api';
import { AttendantsTable } from '../components/AttendantsTable';
import { CounterCard } from '../components/CounterCard';
import { TicketsPerDayChart, TicketsPerUserChart } from '../components/DashboardCharts';
import { DashboardFilters } from '../components/DashboardFilters';
import {
  chartRange,
  companyTimeZone,
  dashboardQuery,
  formatMinutes,
  initialFilter,
  today,
} from '../period';

/** The admin's landing page: attendance figures of a period (spec core 2, 3 and 9). */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const user = useSessionUser();
  const day = useMemo(() => today(companyTimeZone(user)), [user]);
  const [filter, setFilter] = useState(() => initialFilter(day));
  const query = dashboardQuery(filter);
  const range = chartRange(filter, day);
  const dashboard = useDashboard(query);
  const counters = dashboard.data?.counters;
  const figure = (
    value: number | undefined,
    format: (value: number) => string | number = String,
  ) => (value === undefined ? '–' : format(value));

  const cards = [
    {
      key: 'inConversation',
      icon: <ForumIcon />,
      color: 'primary.main',
      value: figure(counters?.supportHappening),
    },
    {
      key: 'waiting',
      icon: <HourglassEmptyIcon />,
      color: 'warning.main',
      value: figure(counters?.supportPending),
    },
    {
      key: 'finished',
      icon: <CheckCircleIcon />,
      color: 'success.main',
      value: figure(counters?.supportFinished),
    },
    {
      key: 'newContacts',
      icon: <PersonAddIcon />,
      color: 'info.main',
      value: figure(counters?.leads),
    },
    {
      key: 'avgSupportTime',
      icon: <AccessTimeIcon />,
      color: 'secondary.main',
      value: figure(counters?.avgSupportTime, formatMinutes),
    },
    {
      key: 'avgWaitTime',
      icon: <HourglassBottomIcon />,
      color: 'error.main',
      value: figure(counters?.avgWaitTime, formatMinutes),
    },
  ];

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
        {cards.map((card) => (
          <CounterCard
            key={card.key}
            icon={card.icon}
            color={card.color}
            label={t(`counters.${card.key}`)}
            value={card.value}
          />
        ))}
      </Box>
      <Box sx={{ mb: 2 }}>
        <AttendantsTable attendants={dashboard.data?.attendants ?? []} />
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <TicketsPerUserChart range={range} />
        <TicketsPerDayChart range={range} />
      </Box>
    </>
  );
}
