import { PLAN_FLAGS, type Plan } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { formatMoney } from '../../../app/format';
import { type ListColumn, ListTable } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { useDeletePlan, usePlans } from '../api';
import { PlanDialog } from './PlanDialog';

/** The super user's plans: limits, value and which features each one opens. */
export function PlansTab() {
  const { t } = useTranslation('plans');
  const plans = usePlans();
  const dialog = useRecordDialog<Plan>();
  const remove = useDeletePlan();
  const deletion = useConfirmation<Plan>(
    (plan) =>
      remove.mutateAsync(plan.id).catch((error: unknown) => {
        toast.error(t('errors.deleteFailed'));
        throw error;
      }),
    t('toasts.deleted'),
  );
  const limit = (value: number) => (value === 0 ? t('unlimited') : String(value));

  const columns: ListColumn<Plan>[] = [
    { id: 'name', header: t('columns.name'), sx: { fontWeight: 500 }, cell: (plan) => plan.name },
    {
      id: 'users',
      header: t('columns.users'),
      align: 'center',
      cell: (p) => limit(p.users),
    },
    {
      id: 'connections',
      header: t('columns.connections'),
      align: 'center',
      cell: (p) => limit(p.connections),
    },
    {
      id: 'queues',
      header: t('columns.queues'),
      align: 'center',
      cell: (p) => limit(p.queues),
    },
    {
      id: 'value',
      header: t('columns.value'),
      align: 'right',
      cell: (plan) => formatMoney(plan.value),
    },
    {
      id: 'flags',
      header: t('columns.flags'),
      cell: (plan) =>
        PLAN_FLAGS.filter((flag) => plan[flag])
          .map((flag) => t(`flags.${flag}`))
          .join(', ') || '—',
    },
  ];

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      </Box>
      <ListTable
        label={t('title')}
        columns={columns}
        rows={plans.data ?? []}
        rowKey={(plan) => plan.id}
        rowActions={(plan) => (
          <>
            <EditRowAction
              label={t('editRecord', { name: plan.name })}
              onClick={() => dialog.edit(plan)}
            />
            <DeleteRowAction
              label={t('deleteRecord', { name: plan.name })}
              onClick={() => deletion.ask(plan)}
            />
          </>
        )}
        loading={plans.isPending}
        failed={plans.isError}
        emptyText={t('empty')}
      />
      <ConfirmationDialog
        confirmation={deletion}
        title={(plan) => t('confirmDelete.title', { name: plan.name })}
        message={t('confirmDelete.message')}
        confirmLabel={t('common:actions.delete')}
      />
      {dialog.open && (
        <PlanDialog key={dialog.key} open plan={dialog.record} onClose={dialog.close} />
      )}
    </Box>
  );
}
