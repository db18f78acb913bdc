import { connectionsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/**
 * Connections and their sessions: whoever may read them (GET /whatsapp/:id), as a user reads
 * them: the external-API token is for admins' answers only and never emitted.
 */
export const connectionsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, connectionsContract.get);
  // added or changed, the spec's one action: its clients' list adds what it lacks on update
  events.on('connection.saved', ({ companyId, connection }) => {
    const { token: _secret, ...visible } = connection;
    realtime.emit(readers(companyId), 'whatsapp', { action: 'update', whatsapp: visible });
  });
  events.on('connection.deleted', ({ companyId, connectionId }) =>
    realtime.emit(readers(companyId), 'whatsapp', { action: 'delete', whatsappId: connectionId }),
  );
  events.on('connection.session', ({ companyId, session }) =>
    realtime.emit(readers(companyId), 'whatsappSession', { action: 'update', session }),
  );
};
