import type { Company } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { formatDate } from '../../../app/format';
import { type ListColumn, ListTable } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { SearchField } from '../../../app/list/SearchField';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import { usePlans } from '../../plans/api';
import { useCompanies, useDeleteCompany, useExtendDueDate } from '../api';
import { type DueTone, dueTone, nextDueDate } from '../dueDate';
import { CompanyDialog } from './CompanyDialog';

const TONES: Record<Exclude<DueTone, undefined>, string> = {
  soon: '#fffead',
  due: '#f7cc8f',
  overdue: '#fa8c8c',
};

/** The super user's companies: search, add, edit, '+ Vencimento', delete; rows tinted by due date. */
export function CompaniesTab() {
  const { t } = useTranslation('companies');
  const search = useListSearch();
  const records = useCompanies(search.param);
  const rows = flattenPages(records.data, 'companies');
  const plans = usePlans();
  const dialog = useRecordDialog<Company>();
  const extend = useExtendDueDate();
  const remove = useDeleteCompany();
  const deletion = useConfirmation<Company>(
    (company) =>
      remove.mutateAsync(company.id).catch((error: unknown) => {
        toast.error(t('errors.deleteFailed'));
        throw error;
      }),
    t('toasts.deleted'),
  );
  const planName = (id: number) => plans.data?.find((plan) => plan.id === id)?.name ?? '';

  const columns: ListColumn<Company>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sx: { fontWeight: 500 },
      cell: (company) => company.name,
    },
    { id: 'email', header: t('columns.email'), cell: (company) => company.email },
    { id: 'plan', header: t('columns.plan'), cell: (c) => planName(c.planId) },
    {
      id: 'status',
      header: t('columns.status'),
      cell: (company) => (company.status ? t('status.active') : t('status.inactive')),
    },
    {
      id: 'dueDate',
      header: t('columns.dueDate'),
      cell: (company) => {
        const tone = dueTone(company.dueDate);
        return (
          <>
            {formatDate(company.dueDate) || '—'}
            {tone && (
              <Typography variant="caption" component="div">
                {t(`tones.${tone}`)}
              </Typography>
            )}
          </>
        );
      },
    },
    {
      id: 'recurrence',
      header: t('columns.recurrence'),
      cell: (company) => t(`recurrence.${company.recurrence}`),
    },
  ];

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        <SearchField value={search.text} onChange={search.setText} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      </Box>
      <ListTable
        label={t('title')}
        columns={columns}
        rows={rows}
        rowKey={(company) => company.id}
        rowSx={(company) => {
          const tone = dueTone(company.dueDate);
          return tone ? { backgroundColor: TONES[tone] } : undefined;
        }}
        rowActions={(company) => (
          <>
            <RowAction
              title={t('extendDueDate')}
              label={t('extendDueDateOf', { name: company.name })}
              icon={<EventRepeatIcon fontSize="small" />}
              disabled={extend.isPending}
              onClick={() =>
                extend.mutate(
                  { company, dueDate: nextDueDate(company.dueDate, company.recurrence) },
                  { onSuccess: () => toast.success(t('toasts.saved')) },
                )
              }
            />
            <EditRowAction
              label={t('editRecord', { name: company.name })}
              onClick={() => dialog.edit(company)}
            />
            <DeleteRowAction
              label={t('deleteRecord', { name: company.name })}
              onClick={() => deletion.ask(company)}
            />
          </>
        )}
        loading={records.isPending}
        failed={records.isError}
        emptyText={t('empty')}
        more={records}
        resetKey={search.param}
      />
      <ConfirmationDialog
        confirmation={deletion}
        title={(company) => t('confirmDelete.title', { name: company.name })}
        message={t('confirmDelete.message')}
        confirmLabel={t('common:actions.delete')}
      />
      {dialog.open && (
        <CompanyDialog
          key={dialog.key}
          open
          company={dialog.record}
          plans={plans.data ?? []}
          onClose={dialog.close}
        />
      )}
    </Box>
  );
}
