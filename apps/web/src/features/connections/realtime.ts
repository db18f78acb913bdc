import { type Connection, type ConnectionSession, companyEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { applyConnectionChange } from './api';

export interface ConnectionEvent {
  action: 'create' | 'update' | 'delete';
  whatsapp?: Connection;
  whatsappId?: number;
}

export interface SessionEvent {
  action: 'update';
  session?: ConnectionSession;
}

/** Keeps the connections list (the page, its QR dialog and the menu badge) in step. */
export function useConnectionsRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<ConnectionEvent>(companyEvent(companyId, 'whatsapp'), (event) => {
    if (event.action === 'delete') {
      const id = event.whatsappId ?? event.whatsapp?.id;
      if (id !== undefined) applyConnectionChange(queryClient, undefined, Number(id));
      return;
    }
    if (event.whatsapp && typeof event.whatsapp.id === 'number') {
      applyConnectionChange(queryClient, event.whatsapp);
    }
  });
  useSocketEvent<SessionEvent>(companyEvent(companyId, 'whatsappSession'), (event) => {
    if (event.action !== 'update' || !event.session || typeof event.session.id !== 'number') return;
    applyConnectionChange(queryClient, event.session);
  });
}
