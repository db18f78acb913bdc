import type { ContactList, ContactListItem } from '@atendi/shared';
import type { QueryClient } from '@tanstack/react-query';
import { includesText, type Pages, patchPagedLists } from '../contacts/pagedCache';

export type ContactListsPages = Pages<'records', ContactList>;
export type ContactListItemsPages = Pages<'contacts', ContactListItem>;

export const contactListsKeys = {
  all: ['contactLists'] as const,
  lists: ['contactLists', 'list'] as const,
  list: (searchParam: string) => ['contactLists', 'list', searchParam] as const,
  one: (id: number) => ['contactLists', 'one', id] as const,
  /** Items of a list; the search is the third part, as patchPagedLists reads it. */
  items: (contactListId: number) => ['contactListItems', contactListId] as const,
  itemList: (contactListId: number, searchParam: string) =>
    ['contactListItems', contactListId, searchParam] as const,
};

const isFullList = (list: Partial<ContactList>): list is ContactList =>
  typeof list.name === 'string' && typeof list.contactsCount === 'number';

export function patchContactListCaches(
  queryClient: QueryClient,
  change: { record: Partial<ContactList> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'records', ContactList>(
    queryClient,
    contactListsKeys.lists,
    'records',
    'removedId' in change ? change : { item: change.record },
    {
      matches: (list, searchParam) => includesText(list.name, searchParam),
      isComplete: isFullList,
    },
  );
  if ('record' in change && isFullList(change.record)) {
    queryClient.setQueryData(contactListsKeys.one(change.record.id), change.record);
  }
}

const isFullItem = (item: Partial<ContactListItem>): item is ContactListItem =>
  typeof item.name === 'string' &&
  typeof item.number === 'string' &&
  typeof item.contactListId === 'number';

/** The server searches the name, the email and the number's digits. */
export const itemMatches = (item: ContactListItem, searchParam: string) => {
  const digits = searchParam.replace(/\D/g, '');
  return (
    includesText(item.name, searchParam) ||
    includesText(item.email, searchParam) ||
    (digits !== '' && item.number.includes(digits))
  );
};

export function patchContactListItemCaches(
  queryClient: QueryClient,
  contactListId: number,
  change: { record: Partial<ContactListItem> & { id: number } } | { removedId: number },
): void {
  patchPagedLists<'contacts', ContactListItem>(
    queryClient,
    contactListsKeys.items(contactListId),
    'contacts',
    'removedId' in change ? change : { item: change.record },
    { matches: itemMatches, isComplete: isFullItem },
  );
}
