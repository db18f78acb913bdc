import { settingsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/**
 * The company's own record changed (its hours, edited on the settings page): heard by whoever
 * edits that page (PUT /settings/:key). Agents read settings too (their tickets screen asks
 * GET /settings) and may read the company (GET /companies/:id), but no screen of theirs
 * follows its record.
 */
export const companiesAudience: RealtimeAudience = (events, realtime) => {
  events.on('company.saved', ({ companyId, company }) =>
    realtime.emit(readersOf(companyId, settingsContract.update), 'company', {
      action: 'update',
      company,
    }),
  );
};
