import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchContactCaches } from './contacts.cache';

/** Contact lists follow the company's changes live (new contacts from WhatsApp included). */
export function useContactsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('contact', (event) => {
    if (event?.action === 'delete') {
      if (event.contactId !== undefined) {
        patchContactCaches(queryClient, { removedId: Number(event.contactId) });
      }
      return;
    }
    if (event?.contact && typeof event.contact.id === 'number') {
      patchContactCaches(queryClient, { contact: event.contact });
    }
  });
}
