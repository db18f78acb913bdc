import { queueIntegrationsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Integrations: whoever may read them (GET /queueIntegration/:id). */
export const queueIntegrationsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, queueIntegrationsContract.get);
  events.on('queueIntegration.saved', ({ companyId, action, queueIntegration }) =>
    realtime.emit(readers(companyId), 'queueIntegration', { action, queueIntegration }),
  );
  events.on('queueIntegration.deleted', ({ companyId, integrationId }) =>
    realtime.emit(readers(companyId), 'queueIntegration', { action: 'delete', integrationId }),
  );
};
