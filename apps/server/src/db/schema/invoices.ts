import {
  date,
  foreignKey,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companyIdColumn, timestamps } from './columns';
import { companies } from './companies';

/**
 * A company's invoice for one due date of its subscription: written by the billing sweep ahead
 * of the date (one per company and date, whichever instance runs the sweep), paid through the
 * payment provider's charge.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    detail: text('detail').notNull(),
    value: numeric('value', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** 'open' until the provider tells it was paid, then 'paid'. */
    status: text('status').notNull().default('open'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The provider's charge (Asaas 'pay_...') once checkout created it. */
    chargeId: text('charge_id'),
    ...timestamps,
  },
  (t) => [
    unique('invoices_company_id_key').on(t.companyId, t.id),
    uniqueIndex('invoices_company_due_date_key').on(t.companyId, t.dueDate),
    uniqueIndex('invoices_charge_key').on(t.chargeId),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete('cascade'),
  ],
);
