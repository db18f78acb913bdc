import { settingsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** A setting changed: whoever may read the settings (GET /settings). */
export const settingsAudience: RealtimeAudience = (events, realtime) => {
  events.on('settings.updated', ({ companyId, setting }) =>
    realtime.emit(readersOf(companyId, settingsContract.list), 'settings', {
      action: 'update',
      setting,
    }),
  );
};
