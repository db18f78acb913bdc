import type { ChannelSessions } from '../channels/sessions';
import type { Platform } from '../platform/platform';

/**
 * What services are built from: the platform, and the channels as the rest of the server reaches
 * them (send, ask the owner, background work). Each service takes the parts it uses.
 */
export interface ServiceDeps extends Platform {
  channels: ChannelSessions;
}
