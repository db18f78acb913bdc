import { schedulesContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Schedules: whoever may read them (GET /schedules/:id; the plan switches them on). */
export const schedulesAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, schedulesContract.get);
  events.on('schedule.saved', ({ companyId, action, schedule }) =>
    realtime.emit(readers(companyId), 'schedule', { action, schedule }),
  );
  events.on('schedule.deleted', ({ companyId, scheduleId }) =>
    realtime.emit(readers(companyId), 'schedule', { action: 'delete', scheduleId }),
  );
};
