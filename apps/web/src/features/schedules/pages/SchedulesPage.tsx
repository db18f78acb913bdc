import 'react-big-calendar/lib/css/react-big-calendar.css';
import type { Schedule } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { alpha, useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { type ComponentType, useCallback, useMemo, useState } from 'react';
import { Calendar, dateFnsLocalizer, type EventProps, type View } from 'react-big-calendar';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClock, wallClock } from '../../../app/clock';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { SearchField } from '../../../app/list/SearchField';
import { useListSearch } from '../../../app/list/useListSearch';
import { useContact } from '../../contacts/api';
import type { PickedContact } from '../../contacts/components/ContactPicker';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteSchedule, useSchedules } from '../api';
import { ScheduleDialog } from '../components/ScheduleDialog';
import { useSchedulesRealtime } from '../realtime';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek,
  getDay,
  locales: { pt: ptBR, en: enUS, es },
});

interface ScheduleEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

const CALENDAR_HEIGHT = 500;

type Editing = { schedule?: Schedule; contact?: PickedContact | null } | null;

export function SchedulesPage() {
  const { t, i18n } = useTranslation('schedules');
  const { zone } = useClock();
  useSchedulesRealtime();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const search = useListSearch();
  const schedules = useSchedules(search.param);
  const rows = flattenPages(schedules.data, 'schedules');
  const count = schedules.data?.pages[0]?.count ?? rows.length;
  const [editing, setEditing] = useState<Editing>(null);
  const [view, setView] = useState<View | null>(null);
  const [date, setDate] = useState(() => wallClock(new Date(), zone));
  const deleteSchedule = useDeleteSchedule();
  const deletion = useConfirmation<Schedule>(
    (schedule) => deleteSchedule.mutateAsync(schedule.id),
    t('toasts.deleted'),
  );

  // /schedules?contactId=N (the conversation's Agendar): the add dialog, preset to that contact.
  const [params, setParams] = useSearchParams();
  const presetId = Number(params.get('contactId'));
  const preset = useContact(Number.isInteger(presetId) && presetId > 0 ? presetId : undefined);
  const presetOpen = presetId > 0 && !preset.isPending;
  const closeDialog = () => {
    setEditing(null);
    if (params.has('contactId')) {
      const next = new URLSearchParams(params);
      next.delete('contactId');
      setParams(next, { replace: true });
    }
  };
  const dialog: Editing =
    editing ??
    (presetOpen
      ? {
          contact: preset.data
            ? { id: preset.data.id, name: preset.data.name, number: preset.data.number }
            : null,
        }
      : null);

  const events = useMemo<ScheduleEvent[]>(
    () =>
      rows.map((schedule) => {
        // the calendar draws on the browser's clock: it gets the company's wall-clock time
        const start = wallClock(schedule.sendAt, zone);
        return { id: schedule.id, title: schedule.contact.name, start, end: start, schedule };
      }),
    [rows, zone],
  );

  const edit = useCallback((schedule: Schedule) => setEditing({ schedule }), []);
  const ask = deletion.ask;
  const EventContent = useMemo<ComponentType<EventProps<ScheduleEvent>>>(
    () =>
      function EventContent({ event }) {
        const name = event.title;
        const stop = (run: () => void) => (click: { stopPropagation: () => void }) => {
          click.stopPropagation();
          run();
        };
        return (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, minWidth: 0 }}>
            <Typography variant="caption" noWrap sx={{ flex: 1, minWidth: 0, fontWeight: 500 }}>
              {name}
            </Typography>
            <IconButton
              size="small"
              aria-label={t('editSchedule', { name })}
              onClick={stop(() => edit(event.schedule))}
              onKeyDown={(key) => key.stopPropagation()}
              sx={{ color: 'inherit', p: 0.25 }}
            >
              <EditIcon sx={{ fontSize: 16 }} />
            </IconButton>
            <IconButton
              size="small"
              aria-label={t('deleteSchedule', { name })}
              onClick={stop(() => ask(event.schedule))}
              onKeyDown={(key) => key.stopPropagation()}
              sx={{ color: 'inherit', p: 0.25 }}
            >
              <DeleteOutlineIcon sx={{ fontSize: 16 }} />
            </IconButton>
          </Box>
        );
      },
    [t, edit, ask],
  );

  const messages = useMemo(
    () => ({
      date: t('calendar.date'),
      time: t('calendar.time'),
      event: t('calendar.event'),
      allDay: t('calendar.allDay'),
      week: t('calendar.week'),
      work_week: t('calendar.workWeek'),
      day: t('calendar.day'),
      month: t('calendar.month'),
      previous: t('calendar.previous'),
      next: t('calendar.next'),
      yesterday: t('calendar.yesterday'),
      tomorrow: t('calendar.tomorrow'),
      today: t('calendar.today'),
      agenda: t('calendar.agenda'),
      noEventsInRange: t('calendar.noEventsInRange'),
      showMore: (total: number) => t('calendar.showMore', { count: total }),
    }),
    [t],
  );

  const language = i18n.language.slice(0, 2);
  const culture = language === 'en' || language === 'es' ? language : 'pt';
  // A phone has no room for a month's grid: the agenda lists the schedules by day.
  const views: View[] = phone ? ['agenda', 'day', 'month'] : ['month', 'week', 'day', 'agenda'];
  const currentView = view && views.includes(view) ? view : phone ? 'agenda' : 'month';

  return (
    <>
      <PageHeader title={t('titleCount', { count })}>
        <SearchField value={search.text} onChange={search.setText} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
          {t('add')}
        </Button>
      </PageHeader>
      {schedules.isError && (
        <Typography color="error" role="alert" sx={{ mb: 1 }}>
          {t('common:errors.listFailed')}
        </Typography>
      )}
      <Paper
        variant="outlined"
        aria-busy={schedules.isPending || schedules.isFetchingNextPage}
        sx={{
          p: { xs: 1, sm: 2 },
          '& .rbc-calendar': { color: 'text.primary' },
          '& .rbc-toolbar': { gap: 1, mb: 1.5 },
          '& .rbc-toolbar .rbc-toolbar-label': { fontWeight: 600, py: { xs: 0.5, sm: 0 } },
          // On a phone each group of buttons gets the whole width, its buttons sharing it.
          '& .rbc-toolbar .rbc-btn-group': { display: 'flex', width: { xs: '100%', md: 'auto' } },
          '& .rbc-toolbar .rbc-btn-group button': { flex: { xs: 1, md: 'none' }, px: 1 },
          '& .rbc-toolbar button': { color: 'text.primary', borderColor: 'divider' },
          '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:focus-visible': {
            bgcolor: alpha(theme.palette.primary.main, 0.16),
            color: 'text.primary',
          },
          '& .rbc-month-view, & .rbc-time-view, & .rbc-agenda-view table.rbc-agenda-table, & .rbc-header, & .rbc-day-bg + .rbc-day-bg, & .rbc-month-row + .rbc-month-row, & .rbc-agenda-view table.rbc-agenda-table tbody > tr > td + td, & .rbc-agenda-view table.rbc-agenda-table tbody > tr + tr':
            { borderColor: 'divider' },
          '& .rbc-off-range-bg': { bgcolor: 'action.hover' },
          '& .rbc-today': { bgcolor: alpha(theme.palette.primary.main, 0.08) },
          '& .rbc-event, & .rbc-day-slot .rbc-background-event': {
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
            py: 0,
          },
          '& .rbc-agenda-view .rbc-agenda-event-cell .MuiTypography-root': {
            color: 'text.primary',
          },
          '& .rbc-agenda-view .rbc-agenda-event-cell .MuiIconButton-root': {
            color: 'text.secondary',
          },
          '& .rbc-show-more': { color: 'primary.main', bgcolor: 'transparent' },
          // The agenda fits the screen: fixed columns, the dates wrap, the names are cut.
          '& .rbc-agenda-view table.rbc-agenda-table': {
            tableLayout: 'fixed',
            fontSize: { xs: '0.8125rem', sm: 'inherit' },
          },
          '& .rbc-agenda-view table.rbc-agenda-table thead > tr > th': {
            px: { xs: 0.75, sm: '3px' },
          },
          '& .rbc-agenda-view table.rbc-agenda-table .rbc-agenda-time-cell': {
            px: { xs: 0.75, sm: '15px' },
          },
          '& .rbc-agenda-view .rbc-agenda-date-cell, & .rbc-agenda-view .rbc-agenda-time-cell': {
            whiteSpace: 'normal',
          },
          '& .rbc-agenda-view table.rbc-agenda-table tr > :nth-of-type(1)': {
            width: { xs: '32%', sm: '20%' },
          },
          '& .rbc-agenda-view table.rbc-agenda-table tr > :nth-of-type(2)': {
            width: { xs: '20%', sm: '15%' },
          },
        }}
      >
        <Calendar<ScheduleEvent>
          localizer={localizer}
          culture={culture}
          events={events}
          startAccessor="start"
          endAccessor="end"
          titleAccessor="title"
          views={views}
          view={currentView}
          onView={setView}
          date={date}
          onNavigate={setDate}
          getNow={() => wallClock(new Date(), zone)}
          messages={messages}
          components={{ event: EventContent }}
          onSelectEvent={(event) => edit(event.schedule)}
          popup
          style={{ height: CALENDAR_HEIGHT }}
        />
      </Paper>
      {dialog && (
        <ScheduleDialog
          key={dialog.schedule?.id ?? `new-${dialog.contact?.id ?? ''}`}
          open
          schedule={dialog.schedule}
          contact={dialog.contact}
          onClose={closeDialog}
        />
      )}
      <ConfirmationDialog
        confirmation={deletion}
        title={(schedule) => t('confirmDelete.title', { name: schedule.contact.name })}
        message={t('confirmDelete.message')}
        confirmLabel={t('common:actions.delete')}
      />
    </>
  );
}
