import type { Invoice } from '@atendi/shared';
import Button from '@mui/material/Button';
import { alpha } from '@mui/material/styles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { formatDate, formatMoney } from '../../../app/format';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { useListSearch } from '../../../app/list/useListSearch';
import { flattenPages } from '../../contacts/pagedCache';
import { useInvoices } from '../api';
import { CheckoutDialog } from '../components/CheckoutDialog';
import { usePaymentEvents } from '../realtime';

export type InvoiceState = 'paid' | 'overdue' | 'open';

/** Pago when paid; Vencido when its due date is before today; Em Aberto otherwise. */
export function invoiceState(invoice: Invoice, today = new Date()): InvoiceState {
  if (invoice.status === 'paid') return 'paid';
  const local = new Date(today.getTime() - today.getTimezoneOffset() * 60_000);
  return invoice.dueDate < local.toISOString().slice(0, 10) ? 'overdue' : 'open';
}

/** Faturas (spec administration 2, 4): the company's invoices and their Pix checkout. */
export function FinancialPage() {
  const { t } = useTranslation('financial');
  usePaymentEvents();
  const search = useListSearch();
  const user = useSessionUser();
  // The super user sees every company's invoices, and pays only its own company's.
  const invoices = useInvoices(search.param, user.super ? 'all' : 'own');
  const rows = flattenPages(invoices.data, 'invoices');
  const [paying, setPaying] = useState<Invoice>();

  const columns: ListColumn<Invoice>[] = [
    { id: 'id', header: t('columns.id'), align: 'center', cell: (invoice) => invoice.id },
    ...(user.super
      ? [
          {
            id: 'company',
            header: t('columns.company'),
            cell: (invoice: Invoice) => invoice.companyName ?? '',
          },
        ]
      : []),
    { id: 'detail', header: t('columns.detail'), cell: (invoice) => invoice.detail },
    {
      id: 'value',
      header: t('columns.value'),
      align: 'center',
      cell: (invoice) => formatMoney(invoice.value),
    },
    {
      id: 'dueDate',
      header: t('columns.dueDate'),
      align: 'center',
      cell: (invoice) => formatDate(invoice.dueDate),
    },
    {
      id: 'status',
      header: t('columns.status'),
      align: 'center',
      cell: (invoice) => t(`status.${invoiceState(invoice)}`),
    },
    {
      id: 'action',
      header: t('columns.action'),
      align: 'center',
      cell: (invoice) =>
        invoice.companyId !== user.companyId ? null : invoice.status === 'paid' ? (
          // Inert, as in the original product: a paid invoice has nothing to do.
          <Button size="small" variant="outlined" color="success" tabIndex={-1} disableRipple>
            {t('paidButton')}
          </Button>
        ) : (
          <Button
            size="small"
            variant="contained"
            color="primary"
            onClick={() => setPaying(invoice)}
            aria-label={t('payInvoice', { id: invoice.id })}
          >
            {t('pay')}
          </Button>
        ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      columns={columns}
      rows={rows}
      rowKey={(invoice) => invoice.id}
      rowSx={(invoice) =>
        invoiceState(invoice) === 'overdue'
          ? { backgroundColor: (theme) => alpha(theme.palette.error.main, 0.12) }
          : undefined
      }
      loading={invoices.isPending}
      failed={invoices.isError}
      emptyText={t('empty')}
      more={invoices}
    >
      {paying && (
        <CheckoutDialog
          key={paying.id}
          open
          invoice={paying}
          onClose={() => setPaying(undefined)}
        />
      )}
    </ListPage>
  );
}
