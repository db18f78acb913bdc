import { quickMessagesContract } from '@atendi/shared';
import { type Audience, type RealtimeAudience, readersOf } from '../../platform/realtime';

/**
 * Quick replies, by the rule of GET /quick-messages/:id: a shared ('geral') one to every user,
 * a queue's to the agents of that queue, and each to its owner and to those who read everyone's
 * (quickMessages:all). A reply made personal, or moved to another queue, is taken from those who
 * no longer see it.
 */
export const quickMessagesAudience: RealtimeAudience = (events, realtime) => {
  const everyone = (companyId: number) => readersOf(companyId, quickMessagesContract.get);
  const readers = (
    companyId: number,
    ownerId: number | null,
    queueId: number | null | undefined,
  ): Audience => ({
    companyId,
    may: 'quickMessages:all',
    userIds: ownerId ? [ownerId] : [],
    ...(queueId ? { queueId } : {}),
  });
  events.on(
    'quickMessage.saved',
    ({ companyId, action, record, ownerId, wasShared, wasQueueId }) => {
      const now = record.geral ? everyone(companyId) : readers(companyId, ownerId, record.queueId);
      realtime.emit(now, 'quickmessage', { action, record });
      const before = wasShared
        ? everyone(companyId)
        : wasQueueId && wasQueueId !== record.queueId
          ? readers(companyId, ownerId, wasQueueId)
          : undefined;
      if (before && !record.geral) {
        realtime.emit(before, 'quickmessage', { action: 'delete', id: record.id }, now);
      }
    },
  );
  events.on('quickMessage.deleted', ({ companyId, id, ownerId, geral, queueId }) =>
    realtime.emit(
      geral ? everyone(companyId) : readers(companyId, ownerId, queueId),
      'quickmessage',
      {
        action: 'delete',
        id,
      },
    ),
  );
};
