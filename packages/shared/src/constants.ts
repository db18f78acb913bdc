export const APP_VERSION = '6.0.0';

/** Realtime channel (spec core 9). */
export const SOCKET_PING_INTERVAL_MS = 18_000;
export const SOCKET_PING_TIMEOUT_MS = 18_000;
export const SOCKET_MIN_TOKEN_SECONDS_TO_RECONNECT = 180;
export const EXPIRED_TOKEN_RELOAD_DELAY_MS = 1_000;
export const USER_STATUS_INTERVAL_MS = 300_000;

/** A user is shown online while its last userStatus ping is younger than this. */
export const USER_ONLINE_WINDOW_MS = USER_STATUS_INTERVAL_MS * 2;

export const TRIAL_DAYS = 3;
export const DUE_DATE_WARNING_DAYS = 5;

export const SEARCH_DEBOUNCE_MS = 500;
/**
 * Searches (GET /tickets and GET /contacts with searchParam) count their matches up to this many:
 * past it the answer says `count` SEARCH_COUNT_LIMIT with `countExact` false (at least that many).
 */
export const SEARCH_COUNT_LIMIT = 1000;
export const LIST_SCROLL_THRESHOLD_PX = 100;
export const MESSAGE_LIST_SCROLL_THRESHOLD_PX = 50;
export const CONNECTION_BADGE_CHECK_MS = 2_000;

export const DEFAULT_PAGE_SIZE = 20;
export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
