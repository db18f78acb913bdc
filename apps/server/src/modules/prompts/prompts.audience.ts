import { promptsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Prompts: whoever may read them (GET /prompt/:id: admins, with the plan's AI). */
export const promptsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, promptsContract.get);
  events.on('prompt.saved', ({ companyId, action, prompt }) =>
    realtime.emit(readers(companyId), 'prompt', { action, prompt }),
  );
  events.on('prompt.deleted', ({ companyId, promptId }) =>
    realtime.emit(readers(companyId), 'prompt', { action: 'delete', promptId }),
  );
};
