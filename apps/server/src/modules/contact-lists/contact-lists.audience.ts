import { contactListsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Contact lists and their items: whoever may read them (GET /contact-lists/:id, the items'). */
export const contactListsAudience: RealtimeAudience = (events, realtime) => {
  const lists = (companyId: number) => readersOf(companyId, contactListsContract.get);
  const items = (companyId: number) => readersOf(companyId, contactListsContract.getItem);
  events.on('contactList.saved', ({ companyId, action, record }) =>
    realtime.emit(lists(companyId), 'ContactList', { action, record }),
  );
  events.on('contactList.deleted', ({ companyId, id }) =>
    realtime.emit(lists(companyId), 'ContactList', { action: 'delete', id }),
  );
  events.on('contactListItem.saved', ({ companyId, action, record }) =>
    realtime.emit(items(companyId), 'ContactListItem', { action, record }),
  );
  events.on('contactListItem.deleted', ({ companyId, id, contactListId }) =>
    realtime.emit(items(companyId), 'ContactListItem', { action: 'delete', id, contactListId }),
  );
  events.on('contactListItem.reload', ({ companyId, contactListId }) =>
    realtime.emit(items(companyId), 'ContactListItem', { action: 'reload', contactListId }),
  );
  events.on('contactListItem.importProgress', ({ companyId, progress }) =>
    realtime.emit(items(companyId), 'ContactListItem', { action: 'progress', ...progress }),
  );
};
