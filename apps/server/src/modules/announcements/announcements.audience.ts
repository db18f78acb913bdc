import { announcementsContract } from '@atendi/shared';
import type { PlatformAudience, RealtimeAudience } from '../../platform/realtime';

/**
 * Announcements are the platform's: an active one is heard by every user of every company (GET
 * /announcements answers it to all), one withdrawn is named to all as gone. The service announces
 * no draft; were one announced, only those who manage them would hear it (GET hides it from the
 * rest).
 */
export const announcementsAudience: RealtimeAudience = (events, realtime) => {
  const everyone: PlatformAudience = { platform: true };
  const managers: PlatformAudience = { platform: true, may: announcementsContract.create.access };
  events.on('announcement.saved', ({ action, record }) =>
    realtime.announce(record.status ? everyone : managers, { action, record }),
  );
  events.on('announcement.deleted', ({ id }) =>
    realtime.announce(everyone, { action: 'delete', id }),
  );
};
