import type { RealtimeAudience } from '../../platform/realtime';

/** A sign-in is told to the user's own sockets: an older session's client signs out. */
export const authAudience: RealtimeAudience = (events, realtime) => {
  events.on('auth.signedIn', ({ companyId, userId, sessionId }) =>
    realtime.emit({ companyId, userIds: [userId] }, 'auth', {
      action: 'update',
      user: { id: userId },
      sessionId,
    }),
  );
};
