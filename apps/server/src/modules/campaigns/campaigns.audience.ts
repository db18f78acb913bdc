import { campaignsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Campaigns, their status and progress: whoever may read them (GET /campaigns/:id). */
export const campaignsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, campaignsContract.get);
  events.on('campaign.saved', ({ companyId, action, record }) =>
    realtime.emit(readers(companyId), 'campaign', { action, record }),
  );
  events.on('campaign.deleted', ({ companyId, id }) =>
    realtime.emit(readers(companyId), 'campaign', { action: 'delete', id }),
  );
};
