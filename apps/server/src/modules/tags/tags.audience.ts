import { tagsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Tags: whoever may read them (GET /tags/:id), every user of the company. */
export const tagsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, tagsContract.get);
  events.on('tag.saved', ({ companyId, action, tag }) =>
    realtime.emit(readers(companyId), 'tag', { action, tag }),
  );
  events.on('tag.deleted', ({ companyId, tagId }) =>
    realtime.emit(readers(companyId), 'tag', { action: 'delete', tagId }),
  );
};
