import {
  KANBAN_PAGE_SIZE,
  type KanbanCard,
  type KanbanTickets,
  OPEN_LANE,
  type Tag,
} from '@atendi/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { setLiveQueryData } from '../../app/liveCache';

export const kanbanKeys = {
  all: ['kanban'] as const,
  tags: ['kanban', 'tags'] as const,
  lanes: ['kanban', 'lane'] as const,
  lane: (tagId: number, queueIds: readonly number[]) =>
    ['kanban', 'lane', tagId, queueIds.join(',')] as const,
};

type LaneData = InfiniteData<KanbanTickets, number>;

/**
 * The lane a ticket's card belongs in, as the server pages it: its kanban tag (the oldest, of
 * the lowest id, when it carries several), or 'Em aberto' when it has none.
 */
export function laneOf(
  ticket: Pick<KanbanCard, 'tags'>,
  kanbanTagIds: ReadonlySet<number>,
): number {
  const lanes = ticket.tags.filter((tag) => kanbanTagIds.has(tag.id)).map((tag) => tag.id);
  return lanes.length > 0 ? Math.min(...lanes) : OPEN_LANE;
}

const withoutTicket = (data: LaneData, ticketId: number): LaneData => ({
  ...data,
  pages: data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.filter((ticket) => ticket.id !== ticketId),
  })),
});

/**
 * Puts the ticket's card where it now belongs on every loaded lane: taken out of the others,
 * first in its own (newest activity first). A closed ticket, or one of a queue the board does
 * not show, leaves the board. A lane being fetched meanwhile gets the change again on its answer
 * (else a card moved away while its old lane loads would show in both).
 */
export function placeTicket(
  queryClient: QueryClient,
  change: { ticket: KanbanCard } | { removedId: number },
) {
  const kanbanTags = queryClient.getQueryData<{ lista: Tag[] }>(kanbanKeys.tags)?.lista ?? [];
  const kanbanTagIds = new Set(kanbanTags.map((tag) => tag.id));
  for (const [key] of queryClient.getQueriesData<LaneData>({ queryKey: kanbanKeys.lanes })) {
    const laneId = Number(key[2]);
    const queueIds = String(key[3] ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number);
    setLiveQueryData<LaneData>(queryClient, key, (data) => {
      if (!data) return data;
      if ('removedId' in change) return withoutTicket(data, change.removedId);
      const { ticket } = change;
      const rest = withoutTicket(data, ticket.id);
      const shown =
        ticket.status !== 'closed' &&
        (queueIds.length === 0 || ticket.queueId === null || queueIds.includes(ticket.queueId));
      if (!shown || laneOf(ticket, kanbanTagIds) !== laneId) return rest;
      const [first, ...others] = rest.pages;
      return {
        ...rest,
        pages: [{ ...first!, tickets: [ticket, ...(first?.tickets ?? [])] }, ...others],
      };
    });
  }
}

export { KANBAN_PAGE_SIZE };
