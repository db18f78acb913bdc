import {
  type Schedule,
  type ScheduleCreate,
  type ScheduleUpdate,
  schedulesContract as schedules,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../app/api';
import { saveWithAttachment } from '../../app/attachments';
import { patchScheduleCaches, schedulesKeys } from './schedules.cache';

/**
 * The company's schedules of a search, every page: the calendar shows them all, so the next page
 * is asked as soon as one arrives.
 */
export function useSchedules(searchParam: string) {
  const query = useInfiniteQuery({
    queryKey: schedulesKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(schedules.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return query;
}

export interface SaveScheduleInput {
  id?: number;
  data: ScheduleCreate | ScheduleUpdate;
  /** An image to attach after saving (replacing any); null removes the current one. */
  media?: File | null;
}

/** Saves the schedule, then its image through media-upload. */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  const patch = (schedule: Schedule) => patchScheduleCaches(queryClient, { schedule });
  return useMutation({
    // the dialog places field errors itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data, media }: SaveScheduleInput) =>
      saveWithAttachment(
        () =>
          id === undefined
            ? api.call(schedules.create, { body: data as ScheduleCreate })
            : api.call(schedules.update, { params: { id }, body: data }),
        (saved) => saved.id,
        media,
        {
          typeArch: 'schedule',
          attach: (scheduleId, form) =>
            api.call(schedules.attachMedia, { params: { id: scheduleId }, body: form }),
          detach: (scheduleId) => api.call(schedules.detachMedia, { params: { id: scheduleId } }),
        },
        patch,
      ),
    onSuccess: patch,
    onError: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.lists }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(schedules.remove, { params: { id } }),
    onSuccess: (_result, id) => patchScheduleCaches(queryClient, { removedId: id }),
  });
}
