import { LIST_SCROLL_THRESHOLD_PX, type Ticket } from '@atendi/shared';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { VirtualList } from '../../../app/list/VirtualList';
import type { TicketsData } from '../tickets.cache';
import { flattenTickets } from '../tickets.cache';
import { TicketListItem } from './TicketListItem';

export interface TicketsListQuery {
  data: TicketsData | undefined;
  isLoading: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface TicketsListProps {
  query: TicketsListQuery;
  label: string;
  selectedId?: number;
  canSpy: boolean;
  acceptingId?: number;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onSpy: (ticket: Ticket) => void;
}

const ticketKey = (ticket: Ticket) => ticket.id;

/** One tab's tickets, virtualised, asking for the next page within 100 px of the bottom. */
export function TicketsList(props: TicketsListProps) {
  const { query, label, selectedId, canSpy, acceptingId, onOpen, onAccept, onSpy } = props;
  const { t } = useTranslation('tickets');
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  const loadMoreIfNear = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || !hasNextPage || isFetchingNextPage) return;
      const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (distance <= LIST_SCROLL_THRESHOLD_PX && element.clientHeight > 0) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );

  // a first page shorter than the pane cannot be scrolled: keep loading until it can
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when rows change
  useEffect(() => loadMoreIfNear(scroller.current), [loadMoreIfNear, tickets.length]);

  const renderItem = useCallback(
    (ticket: Ticket) => (
      <TicketListItem
        ticket={ticket}
        selected={ticket.id === selectedId}
        canSpy={canSpy}
        accepting={ticket.id === acceptingId}
        onOpen={onOpen}
        onAccept={onAccept}
        onSpy={onSpy}
      />
    ),
    [selectedId, canSpy, acceptingId, onOpen, onAccept, onSpy],
  );

  return (
    <Box
      ref={(element: HTMLDivElement | null) => {
        scroller.current = (element?.firstElementChild as HTMLDivElement | null) ?? null;
      }}
      sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}
    >
      <VirtualList
        items={tickets}
        itemKey={ticketKey}
        estimateSize={96}
        renderItem={renderItem}
        onScroll={loadMoreIfNear}
        ariaLabel={label}
        testId="tickets-scroller"
        footer={
          <>
            {(query.isLoading || isFetchingNextPage) && (
              <LinearProgress aria-label={t('common:loading')} />
            )}
            {!query.isLoading && tickets.length === 0 && (
              <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
                {query.isError ? t('common:errors.listFailed') : t('empty')}
              </Typography>
            )}
          </>
        }
      />
    </Box>
  );
}
