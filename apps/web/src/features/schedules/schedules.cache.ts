import type { Schedule } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export type SchedulesPages = Pages<'schedules', Schedule>;

export const schedulesKeys = {
  all: ['schedules'] as const,
  lists: ['schedules', 'list'] as const,
  list: (searchParam: string) => ['schedules', 'list', searchParam] as const,
};

/** The server searches the text and the contact's name. */
export const scheduleMatches = (schedule: Schedule, searchParam: string) =>
  includesText(schedule.body, searchParam) || includesText(schedule.contact.name, searchParam);

const isFull = (schedule: Partial<Schedule>): schedule is Schedule =>
  typeof schedule.body === 'string' &&
  typeof schedule.sendAt === 'string' &&
  typeof schedule.contact === 'object';

export function patchScheduleCaches(
  queryClient: QueryClient,
  change: { schedule: Partial<Schedule> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'schedules', Schedule>(
    queryClient,
    schedulesKeys.lists,
    'schedules',
    'removedId' in change ? change : { item: change.schedule },
    { matches: scheduleMatches, isComplete: isFull },
  );
}
