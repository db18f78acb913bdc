import {
  CLIENT_MESSAGES,
  type CompanyTopic,
  companyEvent,
  EXPIRED_TOKEN_RELOAD_DELAY_MS,
  type RealtimePayloads,
  SOCKET_MIN_TOKEN_SECONDS_TO_RECONNECT,
  USER_STATUS_INTERVAL_MS,
} from '@atendi/shared';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { io, type Socket } from 'socket.io-client';
import { apiBaseUrl, refreshAccessToken } from './api';
import { useSessionUser } from './auth';
import {
  clearSession,
  decodeToken,
  markEndedElsewhere,
  readToken,
  tokenSecondsLeft,
} from './session';
import { toast } from './toast';

/** Exported for tests, which provide a fake socket; the app uses <SocketProvider>. */
export const SocketContext = createContext<Socket | null>(null);

export const useSocket = () => useContext(SocketContext);

/** Subscribes to one realtime event for the component's lifetime; the handler may change. */
export function useSocketEvent<T>(event: string | null, handler: (payload: T) => void): void {
  const socket = useSocket();
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket || !event) return;
    const listener = (payload: T) => latest.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}

/**
 * Subscribes to `company-{id}-{topic}` of the signed-in user's company. The handler reads the
 * topic's payloads as the shared map declares them, which is what the server's gateway emits.
 */
export function useCompanyEvent<T extends CompanyTopic>(
  topic: T,
  handler: (payload: RealtimePayloads[T]) => void,
): void {
  const { companyId } = useSessionUser();
  useSocketEvent(companyEvent(companyId, topic), handler);
}

const RELOAD_MARK = 'socketReloadAt';
const RELOAD_GUARD_MS = 30_000;

/**
 * The spec's rule for an expired token is to reload after a second (the reload refreshes it).
 * A second expired token right after such a reload means something else is wrong (a refused
 * refresh, a clock far off): refresh in place instead of reloading in a loop.
 */
function reloadOrRefresh(connect: (token: string) => void): () => void {
  const last = Number(sessionStorage.getItem(RELOAD_MARK) ?? 0);
  if (Date.now() - last > RELOAD_GUARD_MS) {
    const timer = setTimeout(() => {
      sessionStorage.setItem(RELOAD_MARK, String(Date.now()));
      window.location.reload();
    }, EXPIRED_TOKEN_RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }
  let cancelled = false;
  refreshAccessToken().then(
    (token) => {
      if (token && !cancelled) connect(token);
    },
    () => {},
  );
  return () => {
    cancelled = true;
  };
}

export function SocketProvider({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const { t } = useTranslation('layout');
  const [socket, setSocket] = useState<Socket | null>(null);
  const tRef = useRef(t);
  tRef.current = t;
  const userId = user.id;
  const companyId = user.companyId;

  useEffect(() => {
    let current: Socket | null = null;
    let closing = false;
    let cancelPending: (() => void) | undefined;
    let statusTimer: ReturnType<typeof setInterval> | undefined;
    let lastRefusedRetry = 0;

    const connect = (token: string) => {
      const next = io(apiBaseUrl(), {
        query: { token },
        transports: ['websocket', 'polling'],
      });
      current = next;

      // every attempt presents the newest token, which the API client may have refreshed
      next.io.on('reconnect_attempt', () => {
        next.io.opts.query = { token: readToken() ?? '' };
      });

      next.on('connect', () => {
        next.emit(CLIENT_MESSAGES.userStatus);
      });

      next.on('disconnect', (reason) => {
        if (closing || !reason.startsWith('io ')) return; // other drops reconnect by themselves
        const latest = readToken();
        const left = tokenSecondsLeft(latest);
        if (!latest || left <= 0) {
          cancelPending = reloadOrRefresh(reconnectWith);
          return;
        }
        if (left < SOCKET_MIN_TOKEN_SECONDS_TO_RECONNECT) {
          // this token would be dropped again in a moment: get a fresh one first
          refreshAccessToken().then(
            (token) => token && reconnectWith(token),
            () => {},
          );
          return;
        }
        reconnectWith(latest);
      });

      // refused by the server's handshake check (usually an expired token): not retried by itself
      next.on('connect_error', () => {
        if (next.active || closing) return;
        if (Date.now() - lastRefusedRetry < RELOAD_GUARD_MS) return;
        lastRefusedRetry = Date.now();
        refreshAccessToken().then(
          (token) => token && reconnectWith(token),
          () => {},
        );
      });

      next.on(companyEvent(companyId, 'auth'), (event: RealtimePayloads['auth']) => {
        if (event?.action !== 'update' || event.user?.id !== userId) return;
        const ownSession = decodeToken(readToken())?.sid;
        if (event.sessionId && event.sessionId === ownSession) return;
        toast.warning(tRef.current('session.loggedInElsewhere'));
        markEndedElsewhere();
        clearSession();
        closing = true;
        next.disconnect();
        setTimeout(() => window.location.reload(), EXPIRED_TOKEN_RELOAD_DELAY_MS);
      });

      setSocket(next);
    };

    const reconnectWith = (token: string) => {
      if (closing || !current) return;
      if (current.connected) return;
      current.io.opts.query = { token };
      current.connect();
    };

    const token = readToken();
    if (!token || tokenSecondsLeft(token) <= 0) {
      cancelPending = reloadOrRefresh(connect);
    } else {
      connect(token);
    }

    statusTimer = setInterval(() => {
      current?.emit(CLIENT_MESSAGES.userStatus);
    }, USER_STATUS_INTERVAL_MS);

    return () => {
      closing = true;
      cancelPending?.();
      clearInterval(statusTimer);
      current?.removeAllListeners();
      current?.disconnect();
      setSocket(null);
    };
  }, [companyId, userId]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}
