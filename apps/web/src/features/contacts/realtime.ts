import { type Contact, companyEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchContactCaches } from './contacts.cache';

export interface ContactEvent {
  action: 'create' | 'update' | 'delete';
  contact?: Partial<Contact> & { id: number };
  contactId?: number;
}

/** Contact lists follow the company's changes live (new contacts from WhatsApp included). */
export function useContactsRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<ContactEvent>(companyEvent(companyId, 'contact'), (event) => {
    if (event?.action === 'delete') {
      const id = event.contactId ?? event.contact?.id;
      if (id !== undefined) patchContactCaches(queryClient, { removedId: Number(id) });
      return;
    }
    if (event?.contact && typeof event.contact.id === 'number') {
      patchContactCaches(queryClient, { contact: event.contact });
    }
  });
}
