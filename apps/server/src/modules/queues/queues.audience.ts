import { queuesContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/**
 * Queues (and their bot menus), whole as a user reads them (GET /queue/:id): the queue's token is
 * for admins' answers only and never emitted.
 */
export const queuesAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, queuesContract.get);
  events.on('queue.saved', ({ companyId, action, queue }) => {
    const { token: _secret, ...visible } = queue;
    realtime.emit(readers(companyId), 'queue', { action, queue: visible });
  });
  events.on('queue.deleted', ({ companyId, queueId }) =>
    realtime.emit(readers(companyId), 'queue', { action: 'delete', queueId }),
  );
};
