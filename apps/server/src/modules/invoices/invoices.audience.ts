import { invoicesContract } from '@atendi/shared';
import { type RealtimeAudience, readersOf } from '../../platform/realtime';

/** A paid invoice: whoever may read the invoices (GET /invoices/:id) sees the checkout end. */
export const invoicesAudience: RealtimeAudience = (events, realtime) => {
  events.on('invoice.paid', ({ companyId, invoiceId, dueDate }) =>
    realtime.emit(readersOf(companyId, invoicesContract.get), 'payment', {
      action: 'CONCLUIDA',
      invoiceId,
      company: { id: companyId, dueDate },
    }),
  );
};
