import { type KanbanCard as Card, OPEN_LANE } from '@atendi/shared';
import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { PageHeader } from '../../../app/components/PageHeader';
import { useKanbanTags, useMoveCard } from '../api';
import { KanbanCard } from '../components/KanbanCard';
import { KanbanLane, type LaneInfo } from '../components/KanbanLane';
import { PromptKeyboardSensor } from '../keyboardSensor';
import { useKanbanRealtime } from '../realtime';

interface Dragged {
  ticket: Card;
  from: number;
}

/**
 * Arrow keys carry a lifted card from lane to lane (left and right); up and down do nothing,
 * as a lane is ordered by activity, not by hand.
 */
const laneByLane: KeyboardCoordinateGetter = (event, { context }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (step === 0) return undefined;
  event.preventDefault();
  const { droppableRects, droppableContainers, collisionRect, over } = context;
  if (!collisionRect) return undefined;
  const lanes = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((lane): lane is { id: typeof lane.id; rect: NonNullable<typeof lane.rect> } =>
      Boolean(lane.rect),
    )
    .sort((a, b) => a.rect.left - b.rect.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  const here = over
    ? lanes.findIndex((lane) => lane.id === over.id)
    : lanes.findIndex((lane) => centre >= lane.rect.left && centre <= lane.rect.right);
  const next = lanes[here + step];
  if (!next) return undefined;
  return {
    x: next.rect.left + (next.rect.width - collisionRect.width) / 2,
    y: next.rect.top + 48,
  };
};

export function KanbanPage() {
  const { t } = useTranslation('kanban');
  const theme = useTheme();
  useKanbanRealtime();
  const user = useSessionUser();
  // The spec's board: the user's own queues (and tickets with none).
  const queueIds = useMemo(() => user.queues.map((queue) => queue.id), [user.queues]);
  const tags = useKanbanTags();
  const lanes: LaneInfo[] = useMemo(
    () => [
      { id: OPEN_LANE, name: t('openLane'), color: theme.palette.grey[600] },
      ...(tags.data?.lista ?? []).map((tag) => ({ id: tag.id, name: tag.name, color: tag.color })),
    ],
    [tags.data, t, theme.palette.grey],
  );
  const laneName = (id: unknown) =>
    lanes.find((lane) => `lane:${lane.id}` === id)?.name ?? String(id);
  const move = useMoveCard();
  const [dragged, setDragged] = useState<Dragged | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(PromptKeyboardSensor, { coordinateGetter: laneByLane }),
  );

  const draggedOf = (data: unknown) => data as Dragged | undefined;
  const onDragStart = ({ active }: DragStartEvent) =>
    setDragged(draggedOf(active.data.current) ?? null);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const card = draggedOf(active.data.current);
    const to = (over?.data.current as { laneId?: number } | undefined)?.laneId;
    if (!card || to === undefined || to === card.from) return;
    move.mutate({ ticket: card.ticket, from: card.from, to });
  };

  const cardName = (data: unknown) => {
    const card = draggedOf(data);
    return card ? t('card.number', { id: card.ticket.id }) : '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('a11y.picked', { card: cardName(active.data.current) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('a11y.over', { card: cardName(active.data.current), lane: laneName(over.id) })
        : t('a11y.outside', { card: cardName(active.data.current) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('a11y.dropped', { card: cardName(active.data.current), lane: laneName(over.id) })
        : t('a11y.cancelled', { card: cardName(active.data.current) }),
    onDragCancel: ({ active }) => t('a11y.cancelled', { card: cardName(active.data.current) }),
  };

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <PageHeader title={t('title')} />
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: t('a11y.instructions') },
        }}
      >
        <Box
          sx={{
            flex: 1,
            minHeight: { xs: 420, sm: 0 },
            display: 'flex',
            gap: 1.5,
            overflowX: 'auto',
            pb: 1,
            scrollSnapType: 'x mandatory',
          }}
        >
          {lanes.map((lane) => (
            <KanbanLane key={lane.id} lane={lane} queueIds={queueIds} />
          ))}
        </Box>
        <DragOverlay>{dragged ? <KanbanCard ticket={dragged.ticket} lifted /> : null}</DragOverlay>
      </DndContext>
    </Box>
  );
}
