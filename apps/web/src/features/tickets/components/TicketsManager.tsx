import { hasRole, SEARCH_DEBOUNCE_MS, type Ticket } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import InboxIcon from '@mui/icons-material/MoveToInbox';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { useDebouncedValue } from '../../../app/hooks';
import { useQueues } from '../../queues/api';
import { useTagsList, useTickets, useUpdateTicket, useUsersList } from '../api';
import type { TicketFilters } from '../tickets.cache';
import { NewTicketDialog } from './NewTicketDialog';
import { SpyDialog } from './SpyDialog';
import { TicketsList } from './TicketsList';

const QUEUES_KEY = 'selectedQueueIds';

function storedQueues(fallback: number[]): number[] {
  try {
    const value = JSON.parse(localStorage.getItem(QUEUES_KEY) ?? 'null');
    if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value;
  } catch {
    // a damaged value means no choice was kept
  }
  return fallback;
}

type MainTab = 'open' | 'closed' | 'search';
type OpenTab = 'open' | 'pending';

interface TicketsManagerProps {
  selectedId?: number;
  onOpen: (ticket: Ticket) => void;
}

/** The sub-tab's name and its count, read together ('Aguardando 3'). */
function TabCount(props: { label: string; count: number; color: 'primary' | 'secondary' }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      {props.label}{' '}
      <Box
        component="span"
        sx={{
          minWidth: 20,
          height: 20,
          px: 0.75,
          borderRadius: 10,
          fontSize: 12,
          lineHeight: '20px',
          fontWeight: 600,
          bgcolor: `${props.color}.main`,
          color: `${props.color}.contrastText`,
        }}
      >
        {props.count > 9999 ? '9999+' : props.count}
      </Box>
    </Box>
  );
}

const countOf = (data: { pages: { count: number }[] } | undefined) => data?.pages[0]?.count ?? 0;

/** The left pane: tabs, filters and the lists of tickets. */
export function TicketsManager({ selectedId, onOpen }: TicketsManagerProps) {
  const { t } = useTranslation('tickets');
  const me = useSessionUser();
  const admin = hasRole(me, 'admin');
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const [tab, setTab] = useState<MainTab>('open');
  const [openTab, setOpenTab] = useState<OpenTab>('open');
  const [showAll, setShowAll] = useState(admin);
  const [queueIds, setQueueIds] = useState<number[]>(() =>
    storedQueues(me.queues.map((queue) => queue.id)),
  );
  const [search, setSearch] = useState('');
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const [spying, setSpying] = useState<Ticket | null>(null);
  const searchParam = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const queues = useQueues();
  const tags = useTagsList();
  const users = useUsersList({ enabled: admin && tab === 'search' });
  const update = useUpdateTicket();

  const queueOptions = admin ? (queues.data ?? []) : me.queues;
  const base = useMemo<TicketFilters>(
    () => ({ showAll: admin ? showAll : false, queueIds }),
    [admin, showAll, queueIds],
  );
  const openFilters = useMemo<TicketFilters>(() => ({ ...base, status: 'open' }), [base]);
  const pendingFilters = useMemo<TicketFilters>(() => ({ ...base, status: 'pending' }), [base]);
  const closedFilters = useMemo<TicketFilters>(() => ({ ...base, status: 'closed' }), [base]);
  const searchFilters = useMemo<TicketFilters>(
    () => ({ searchParam, queueIds, tags: tagIds, users: admin ? userIds : [], showAll: true }),
    [searchParam, queueIds, tagIds, userIds, admin],
  );
  // both open lists are read whatever the tab: their counts are on the sub-tabs
  const open = useTickets(openFilters);
  const pending = useTickets(pendingFilters);
  const closed = useTickets(closedFilters, { enabled: tab === 'closed' });
  const searching = useTickets(searchFilters, {
    enabled:
      tab === 'search' && (searchParam.length > 0 || tagIds.length > 0 || userIds.length > 0),
  });

  const chooseQueues = (ids: number[]) => {
    setQueueIds(ids);
    localStorage.setItem(QUEUES_KEY, JSON.stringify(ids));
  };

  const accept = useCallback(
    async (ticket: Ticket) => {
      try {
        const accepted = await update.mutateAsync({
          id: ticket.id,
          data: { status: 'open', userId: me.id, queueId: ticket.queueId },
        });
        setOpenTab('open');
        onOpen(accepted);
      } catch {
        // the query client already showed the error
      }
    },
    [update, me.id, onOpen],
  );

  const listProps = {
    selectedId,
    canSpy: admin,
    acceptingId: update.isPending ? update.variables?.id : undefined,
    onOpen,
    onAccept: accept,
    onSpy: setSpying,
  };

  const queueLabel = t('filters.queues');
  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        height: '100%',
        overflow: 'hidden',
      }}
    >
      <Tabs
        value={tab}
        onChange={(_event, value: MainTab) => setTab(value)}
        variant="fullWidth"
        aria-label={t('tabs.label')}
      >
        <Tab
          value="open"
          icon={phone ? undefined : <InboxIcon />}
          iconPosition="start"
          label={t('tabs.open')}
        />
        <Tab
          value="closed"
          icon={phone ? undefined : <CheckCircleOutlineIcon />}
          iconPosition="start"
          label={t('tabs.closed')}
        />
        <Tab
          value="search"
          icon={phone ? undefined : <SearchIcon />}
          iconPosition="start"
          label={t('tabs.search')}
        />
      </Tabs>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 1,
          alignItems: 'center',
          px: 1,
          py: 1,
          borderTop: 1,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Button
          size="small"
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => setCreating(true)}
        >
          {t('newTicket.button')}
        </Button>
        {admin && (
          <FormControlLabel
            sx={{ mr: 0 }}
            control={
              <Switch
                size="small"
                checked={showAll}
                onChange={(event) => setShowAll(event.target.checked)}
              />
            }
            label={t('filters.showAll')}
          />
        )}
        <TextField
          select
          size="small"
          label={queueLabel}
          value={queueIds}
          sx={{ ml: 'auto', minWidth: 140, maxWidth: 220 }}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (selected) =>
                (selected as number[]).length === 0
                  ? t('filters.allQueues')
                  : t('filters.queuesChosen', { count: (selected as number[]).length }),
              displayEmpty: true,
            },
            inputLabel: { shrink: true },
          }}
          onChange={(event) => chooseQueues(event.target.value as unknown as number[])}
        >
          {queueOptions.map((queue) => (
            <MenuItem key={queue.id} value={queue.id}>
              <Box
                component="span"
                sx={{
                  width: 10,
                  height: 10,
                  borderRadius: '50%',
                  bgcolor: (queue as { color?: string }).color ?? 'grey.500',
                  mr: 1,
                }}
              />
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>

      {tab === 'open' && (
        <>
          <Tabs
            value={openTab}
            onChange={(_event, value: OpenTab) => setOpenTab(value)}
            variant="fullWidth"
            aria-label={t('tabs.openLabel')}
            sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 40 }}
          >
            <Tab
              value="open"
              sx={{ minHeight: 40 }}
              label={
                <TabCount label={t('tabs.assigned')} count={countOf(open.data)} color="primary" />
              }
            />
            <Tab
              value="pending"
              sx={{ minHeight: 40 }}
              label={
                <TabCount
                  label={t('tabs.pending')}
                  count={countOf(pending.data)}
                  color="secondary"
                />
              }
            />
          </Tabs>
          {openTab === 'open' ? (
            <TicketsList query={open} label={t('tabs.assigned')} {...listProps} />
          ) : (
            <TicketsList query={pending} label={t('tabs.pending')} {...listProps} />
          )}
        </>
      )}
      {tab === 'closed' && <TicketsList query={closed} label={t('tabs.closed')} {...listProps} />}
      {tab === 'search' && (
        <>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 1 }}>
            <TextField
              size="small"
              type="search"
              label={t('filters.search')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              autoFocus
            />
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <TextField
                select
                size="small"
                label={t('filters.tags')}
                value={tagIds}
                sx={{ flex: 1, minWidth: 140 }}
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                        {(tags.data ?? [])
                          .filter((tag) => (selected as number[]).includes(tag.id))
                          .map((tag) => (
                            <Chip
                              key={tag.id}
                              size="small"
                              label={tag.name}
                              sx={{ bgcolor: tag.color, color: '#fff', height: 20 }}
                            />
                          ))}
                      </Box>
                    ),
                  },
                }}
                onChange={(event) => setTagIds(event.target.value as unknown as number[])}
              >
                {(tags.data ?? []).map((tag) => (
                  <MenuItem key={tag.id} value={tag.id}>
                    {tag.name}
                  </MenuItem>
                ))}
              </TextField>
              {admin && (
                <TextField
                  select
                  size="small"
                  label={t('filters.users')}
                  value={userIds}
                  sx={{ flex: 1, minWidth: 140 }}
                  slotProps={{
                    select: {
                      multiple: true,
                      renderValue: (selected) =>
                        (users.data ?? [])
                          .filter((user) => (selected as number[]).includes(user.id))
                          .map((user) => user.name)
                          .join(', '),
                    },
                  }}
                  onChange={(event) => setUserIds(event.target.value as unknown as number[])}
                >
                  {(users.data ?? []).map((user) => (
                    <MenuItem key={user.id} value={user.id}>
                      {user.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            </Box>
          </Box>
          <TicketsList query={searching} label={t('tabs.search')} {...listProps} />
        </>
      )}
      {creating && (
        <NewTicketDialog
          open
          onClose={() => setCreating(false)}
          onOpened={(ticket) => {
            setCreating(false);
            setTab('open');
            setOpenTab(ticket.status === 'pending' ? 'pending' : 'open');
            onOpen(ticket);
          }}
        />
      )}
      {spying && <SpyDialog ticket={spying} onClose={() => setSpying(null)} />}
    </Paper>
  );
}
