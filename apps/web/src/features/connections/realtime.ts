import { companyEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { type ConnectionSummary, connectionsKey } from './api';

interface ConnectionEvent {
  action: 'update' | 'create' | 'delete';
  whatsapp?: ConnectionSummary;
  whatsappId?: number;
}

interface SessionEvent {
  action: 'update';
  session?: ConnectionSummary;
}

export function patchConnections(
  list: ConnectionSummary[] | undefined,
  change: ConnectionSummary | undefined,
  removedId?: number,
): ConnectionSummary[] | undefined {
  if (!list) return list;
  if (removedId !== undefined) return list.filter((item) => item.id !== removedId);
  if (!change) return list;
  const index = list.findIndex((item) => item.id === change.id);
  if (index === -1) return [...list, change];
  return list.map((item) => (item.id === change.id ? { ...item, ...change } : item));
}

/** Keeps the connections list (and so the menu badge) in step with the server. */
export function useConnectionsRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<ConnectionEvent>(companyEvent(companyId, 'whatsapp'), (event) => {
    queryClient.setQueryData<ConnectionSummary[]>(connectionsKey, (list) =>
      event.action === 'delete'
        ? patchConnections(list, undefined, event.whatsappId ?? event.whatsapp?.id)
        : patchConnections(list, event.whatsapp),
    );
  });
  useSocketEvent<SessionEvent>(companyEvent(companyId, 'whatsappSession'), (event) => {
    if (event.action !== 'update' || !event.session) return;
    queryClient.setQueryData<ConnectionSummary[]>(connectionsKey, (list) =>
      patchConnections(list, event.session),
    );
  });
}
