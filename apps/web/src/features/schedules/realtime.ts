import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchScheduleCaches } from './schedules.cache';

/** `company-{id}-schedule`: schedules created, edited, sent or deleted by anyone. */
export function useSchedulesRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('schedule', (event) => {
    if (event.action === 'delete') {
      patchScheduleCaches(queryClient, { removedId: event.scheduleId });
      return;
    }
    patchScheduleCaches(queryClient, { schedule: event.schedule });
  });
}
