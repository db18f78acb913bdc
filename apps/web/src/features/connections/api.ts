import {
  ATTENTION_STATUSES,
  type Connection,
  type ConnectionCreate,
  type ConnectionUpdate,
  connectionsContract as connections,
} from '@atendi/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { setLiveQueryData } from '../../app/liveCache';

/** What every caller can rely on: realtime events may bring only part of a connection. */
export type ConnectionSummary = Pick<Connection, 'id' | 'name'> & Partial<Connection>;

export const connectionsKey = ['connections', 'list'] as const;

export const needsAttention = (connections: readonly ConnectionSummary[]): boolean =>
  connections.some((connection) =>
    (ATTENTION_STATUSES as readonly string[]).includes(connection.status ?? ''),
  );

/** Merges a change (a saved connection or a session update) into the list, or drops one. */
export function patchConnections(
  list: ConnectionSummary[] | undefined,
  change: ConnectionSummary | undefined,
  removedId?: number,
): ConnectionSummary[] | undefined {
  if (!list) return list;
  if (removedId !== undefined) return list.filter((item) => item.id !== removedId);
  if (!change) return list;
  const index = list.findIndex((item) => item.id === change.id);
  if (index === -1) {
    // a session update alone is not a whole connection: wait for the list to be read again
    return 'provider' in change ? [...list, change] : list;
  }
  // an HTTP answer can arrive after the realtime event that followed it: keep the newer state
  const current = list[index]!;
  if (current.updatedAt && change.updatedAt && change.updatedAt < current.updatedAt) return list;
  const next = list.map((item) => (item.id === change.id ? { ...item, ...change } : item));
  // another connection became the default: only one can be
  if (change.isDefault) {
    return next.map((item) => (item.id === change.id ? item : { ...item, isDefault: false }));
  }
  return next;
}

export function applyConnectionChange(
  queryClient: QueryClient,
  change: ConnectionSummary | undefined,
  removedId?: number,
): void {
  setLiveQueryData<ConnectionSummary[]>(queryClient, connectionsKey, (list) =>
    patchConnections(list, change, removedId),
  );
}

/**
 * The company's connections. Errors are left to the caller: the connections page says the list
 * failed, while the menu badge and the user form simply see none.
 */
export function useConnections({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: connectionsKey,
    enabled,
    meta: { silent: true },
    queryFn: async ({ signal }) => {
      const data = await api.call(connections.list, { signal });
      return (Array.isArray(data) ? data : []) as ConnectionSummary[];
    },
  });
}

export type SaveConnectionInput =
  | { id: number; data: ConnectionUpdate }
  | { id?: undefined; data: ConnectionCreate };

export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    // the dialog places field errors itself and toasts the rest
    meta: { silent: true },
    mutationFn: ({ id, data }: SaveConnectionInput) =>
      id === undefined
        ? api.call(connections.create, { body: data })
        : api.call(connections.update, { params: { id }, body: data }),
    onSuccess: (saved) => {
      if (saved && typeof saved.id === 'number') applyConnectionChange(queryClient, saved);
      else void queryClient.invalidateQueries({ queryKey: connectionsKey });
    },
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(connections.remove, { params: { id } }),
    onSuccess: (_result, id) => {
      applyConnectionChange(queryClient, undefined, id);
      // the server names another default when the default goes
      void queryClient.invalidateQueries({ queryKey: connectionsKey });
    },
  });
}

/** Session actions of the spec: retry (POST), new QR (PUT), disconnect (DELETE). */
export type SessionAction = 'start' | 'newQr' | 'disconnect';

const SESSION_ROUTES = {
  start: connections.startSession,
  newQr: connections.renewSession,
  disconnect: connections.disconnect,
} as const;

export function useSessionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: SessionAction }) =>
      api.call(SESSION_ROUTES[action], { params: { id } }),
    onSuccess: (session) => {
      if (session && typeof session.id === 'number') applyConnectionChange(queryClient, session);
    },
  });
}
