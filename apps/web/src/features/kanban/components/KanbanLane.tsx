import type { KanbanCard as Card } from '@atendi/shared';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { flattenPages } from '../../contacts/pagedCache';
import { useLane } from '../api';
import { KanbanCard } from './KanbanCard';

export interface LaneInfo {
  id: number;
  name: string;
  color: string;
}

export const LANE_WIDTH = 300;
const CARD_ESTIMATE = 150;
const GAP = 8;

function DraggableCard({ ticket, lane }: { ticket: Card; lane: LaneInfo }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: `${lane.id}:${ticket.id}`,
    data: { ticket, from: lane.id },
  });
  return (
    <div ref={setNodeRef} style={{ opacity: isDragging ? 0.4 : 1 }}>
      <KanbanCard
        ticket={ticket}
        cardProps={{ onPointerDown: listeners?.onPointerDown }}
        handle={{
          ref: setActivatorNodeRef,
          props: { ...attributes, onKeyDown: listeners?.onKeyDown },
        }}
      />
    </div>
  );
}

/**
 * A lane: a drop target holding a virtual list of its cards, so a lane of thousands of tickets
 * renders only the cards in view, and asks for the next page when its end comes near.
 */
export function KanbanLane({ lane, queueIds }: { lane: LaneInfo; queueIds: readonly number[] }) {
  const { t } = useTranslation('kanban');
  const query = useLane(lane.id, queueIds);
  const tickets = flattenPages(query.data, 'tickets');
  const { setNodeRef, isOver } = useDroppable({ id: `lane:${lane.id}`, data: { laneId: lane.id } });
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtual = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_ESTIMATE,
    gap: GAP,
    overscan: 4,
    getItemKey: (index) => tickets[index]?.id ?? index,
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= tickets.length - 5) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, tickets.length]);
  const headingId = `kanban-lane-${lane.id}`;
  const count = hasNextPage ? `${tickets.length}+` : String(tickets.length);

  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{
        width: LANE_WIDTH,
        flex: `0 0 ${LANE_WIDTH}px`,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        bgcolor: isOver ? 'action.hover' : 'background.default',
        borderTop: `4px solid ${lane.color}`,
        scrollSnapAlign: 'start',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ flex: 1 }} noWrap>
          {lane.name}
        </Typography>
        <Chip
          size="small"
          label={count}
          aria-label={t('lane.count', { count: tickets.length })}
          sx={{ bgcolor: lane.color, color: (theme) => theme.palette.getContrastText(lane.color) }}
        />
      </Box>
      <Box
        ref={scroller}
        tabIndex={-1}
        sx={{ flex: 1, minHeight: 120, overflowY: 'auto', px: 1, pb: 1 }}
      >
        {query.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={t('loading')} />
          </Box>
        ) : tickets.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
            {t('lane.empty')}
          </Typography>
        ) : (
          <Box
            role="list"
            aria-labelledby={headingId}
            sx={{ height: virtual.getTotalSize(), position: 'relative' }}
          >
            {items.map((item) => {
              const ticket = tickets[item.index]!;
              return (
                <Box
                  key={item.key}
                  role="listitem"
                  data-index={item.index}
                  ref={virtual.measureElement}
                  sx={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  <DraggableCard ticket={ticket} lane={lane} />
                </Box>
              );
            })}
          </Box>
        )}
        {isFetchingNextPage && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
            <CircularProgress size={20} aria-label={t('loading')} />
          </Box>
        )}
      </Box>
    </Paper>
  );
}
