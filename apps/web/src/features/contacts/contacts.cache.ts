import type { Contact } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { type Pages, patchPagedLists } from './pagedCache';

export interface ContactsPage {
  contacts: Contact[];
  count: number;
  /** False when a search found more than SEARCH_COUNT_LIMIT: `count` is a lower bound. */
  countExact?: boolean;
  hasMore: boolean;
}

export type ContactsPages = Pages<'contacts', Contact>;

export const contactsKeys = {
  all: ['contacts'] as const,
  lists: ['contacts', 'list'] as const,
  list: (searchParam: string) => ['contacts', 'list', searchParam] as const,
};

/** Runs of letters and digits, or of other signs: the words the server's search documents hold. */
const wordsOf = (text: string) =>
  text.toLowerCase().match(/[\p{L}\p{N}]+|[^\p{L}\p{N}\s]+/gu) ?? [];

/**
 * The server's rule, for a live insert: every word typed starts a word of the name or email, or
 * a typed number is part of the contact's number.
 */
export function contactMatches(contact: Contact, searchParam: string): boolean {
  const term = searchParam.trim();
  if (!term) return true;
  const words = [...wordsOf(contact.name), ...wordsOf(contact.email)];
  const startsAWord = (typed: string) => words.some((word) => word.startsWith(typed));
  const digits = term.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(term) && digits) {
    return contact.number.replace(/\D/g, '').includes(digits) || startsAWord(digits);
  }
  return wordsOf(term).every((typed) => startsAWord(typed.slice(0, 64)));
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
