import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { applyConnectionChange } from './api';

/** Keeps the connections list (the page, its QR dialog and the menu badge) in step. */
export function useConnectionsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('whatsapp', (event) => {
    if (event.action === 'delete') {
      if (event.whatsappId !== undefined) {
        applyConnectionChange(queryClient, undefined, Number(event.whatsappId));
      }
      return;
    }
    if (event.whatsapp && typeof event.whatsapp.id === 'number') {
      applyConnectionChange(queryClient, event.whatsapp);
    }
  });
  useCompanyEvent('whatsappSession', (event) => {
    if (event.action !== 'update' || !event.session || typeof event.session.id !== 'number') return;
    applyConnectionChange(queryClient, event.session);
  });
}
