import { contactsContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Contacts: whoever may read them (GET /contacts/:id), every user of the company. */
export const contactsAudience: RealtimeAudience = (events, realtime) => {
  const readers = (companyId: number) => readersOf(companyId, contactsContract.get);
  events.on('contact.saved', ({ companyId, action, contact }) =>
    realtime.emit(readers(companyId), 'contact', { action, contact }),
  );
  events.on('contact.deleted', ({ companyId, contactId }) =>
    realtime.emit(readers(companyId), 'contact', { action: 'delete', contactId }),
  );
};
