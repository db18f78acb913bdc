import type { Schedule } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchScheduleCaches } from './schedules.cache';

export interface ScheduleEvent {
  action: 'create' | 'update' | 'delete';
  schedule?: Partial<Schedule> & { id: number };
  scheduleId?: number;
}

/** `company-{id}-schedule`: schedules created, edited, sent or deleted by anyone. */
export function useSchedulesRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<ScheduleEvent>(`company-${companyId}-schedule`, (event) => {
    if (event?.action === 'delete') {
      const id = event.scheduleId ?? event.schedule?.id;
      if (id !== undefined) patchScheduleCaches(queryClient, { removedId: Number(id) });
      return;
    }
    if (event?.schedule && typeof event.schedule.id === 'number') {
      patchScheduleCaches(queryClient, { schedule: event.schedule });
    }
  });
}
