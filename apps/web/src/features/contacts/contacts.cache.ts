import type { Contact } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from './pagedCache';

export interface ContactsPage {
  contacts: Contact[];
  count: number;
  hasMore: boolean;
}

export type ContactsPages = Pages<'contacts', Contact>;

export const contactsKeys = {
  all: ['contacts'] as const,
  lists: ['contacts', 'list'] as const,
  list: (searchParam: string) => ['contacts', 'list', searchParam] as const,
};

/** The server searches names, numbers and emails; a live insert follows the same rule. */
export function contactMatches(contact: Contact, searchParam: string): boolean {
  if (!searchParam.trim()) return true;
  return (
    includesText(contact.name, searchParam) ||
    includesText(contact.number, searchParam) ||
    includesText(contact.email, searchParam)
  );
}

const isFullContact = (contact: Partial<Contact>): contact is Contact =>
  typeof contact.name === 'string' && typeof contact.number === 'string';

export function patchContactCaches(
  queryClient: QueryClient,
  change: { contact: Partial<Contact> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'contacts', Contact>(
    queryClient,
    contactsKeys.lists,
    'contacts',
    'removedId' in change ? change : { item: change.contact },
    { matches: contactMatches, isComplete: isFullContact },
  );
}
