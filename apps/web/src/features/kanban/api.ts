import { type KanbanCard, kanbanContract as kanban, OPEN_LANE, type Tag } from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { toast } from '../../app/toast';
import { kanbanKeys, placeTicket } from './kanban.cache';

/** The lanes after 'Em aberto': the company's kanban tags. A failed load is an empty board. */
export function useKanbanTags() {
  return useQuery({
    queryKey: kanbanKeys.tags,
    queryFn: async ({ signal }) => {
      try {
        return await api.call(kanban.tags, { signal });
      } catch {
        return { lista: [] as Tag[] };
      }
    },
  });
}

/** One lane's cards, a page at a time (the lane asks for the next as it is scrolled). */
export function useLane(tagId: number, queueIds: readonly number[]) {
  return useInfiniteQuery({
    queryKey: kanbanKeys.lane(tagId, queueIds),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(kanban.tickets, {
        query: { tagId, pageNumber: pageParam, queueIds: JSON.stringify(queueIds) },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export interface Move {
  ticket: KanbanCard;
  from: number;
  to: number;
}

/**
 * A card to another lane, as the spec's client does it: the ticket's kanban tags removed
 * (DELETE /ticket-tags/{ticketId}), then the new lane's tag added (PUT .../{tagId}). The card
 * moves at once and goes back if the server refuses.
 */
export function useMoveCard() {
  const { t } = useTranslation('kanban');
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ticket, to }: Move) => {
      await api.call(kanban.removeTags, { params: { ticketId: ticket.id } });
      toast.success(t('toasts.removed'));
      if (to !== OPEN_LANE) {
        await api.call(kanban.addTag, { params: { ticketId: ticket.id, tagId: to } });
        toast.success(t('toasts.added'));
      }
    },
    onMutate: ({ ticket, to }) => {
      const lanes = queryClient.getQueryData<{ lista: Tag[] }>(kanbanKeys.tags)?.lista ?? [];
      const kanbanIds = new Set(lanes.map((tag) => tag.id));
      const target = lanes.find((tag) => tag.id === to);
      const tags = [
        ...ticket.tags.filter((tag) => !kanbanIds.has(tag.id)),
        ...(target ? [{ id: target.id, name: target.name, color: target.color }] : []),
      ];
      placeTicket(queryClient, { ticket: { ...ticket, tags } });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: kanbanKeys.lanes }),
  });
}
