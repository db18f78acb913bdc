import { filesContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** File lists: whoever may read them (GET /files/:id). */
export const filesAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, filesContract.get);
  events.on('fileList.saved', ({ companyId, action, record }) =>
    realtime.emit(readers(companyId), 'file', { action, files: record }),
  );
  events.on('fileList.deleted', ({ companyId, id }) =>
    realtime.emit(readers(companyId), 'file', { action: 'delete', fileId: id }),
  );
};
