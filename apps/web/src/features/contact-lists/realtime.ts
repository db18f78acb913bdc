import type { ContactImportProgress } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import {
  contactListsKeys,
  patchContactListCaches,
  patchContactListItemCaches,
} from './contact-lists.cache';

/** `company-{id}-ContactList`: lists created, renamed (their counts) or deleted by anyone. */
export function useContactListsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('ContactList', (event) => {
    if (event.action === 'delete') {
      patchContactListCaches(queryClient, { removedId: event.id });
      return;
    }
    patchContactListCaches(queryClient, { record: event.record });
  });
}

/**
 * `company-{id}-ContactListItem` for one list: its items live, a reload after an import or a
 * validity check, and the progress of an import.
 */
export function useContactListItemsRealtime(
  contactListId: number,
  onProgress?: (progress: ContactImportProgress) => void,
) {
  const queryClient = useQueryClient();
  useCompanyEvent('ContactListItem', (event) => {
    if (event.action === 'progress') {
      if (event.contactListId === contactListId) onProgress?.(event);
      return;
    }
    if (event.action === 'reload') {
      if (event.contactListId === contactListId) {
        void queryClient.invalidateQueries({ queryKey: contactListsKeys.items(contactListId) });
      }
      return;
    }
    if (event.action === 'delete') {
      if (event.contactListId === contactListId) {
        patchContactListItemCaches(queryClient, contactListId, { removedId: event.id });
      }
      return;
    }
    if (event.record.contactListId === contactListId) {
      patchContactListItemCaches(queryClient, contactListId, { record: event.record });
    }
  });
}
