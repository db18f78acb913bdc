import type { Help } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { type ListColumn, ListTable } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { useDeleteHelp, useHelps } from '../api';
import { HelpDialog } from './HelpDialog';

/** The super user's help videos. */
export function HelpsTab() {
  const { t } = useTranslation('helps');
  const helps = useHelps();
  const dialog = useRecordDialog<Help>();
  const remove = useDeleteHelp();
  const deletion = useConfirmation<Help>(
    (help) =>
      remove.mutateAsync(help.id).catch((error: unknown) => {
        toast.error(t('errors.deleteFailed'));
        throw error;
      }),
    t('toasts.deleted'),
  );

  const columns: ListColumn<Help>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      sx: { fontWeight: 500 },
      cell: (help) => help.title,
    },
    { id: 'video', header: t('columns.video'), cell: (help) => help.video },
    {
      id: 'description',
      header: t('columns.description'),
      sx: { maxWidth: 420 },
      cell: (help) => help.description,
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
        label={t('adminTitle')}
        columns={columns}
        rows={helps.data ?? []}
        rowKey={(help) => help.id}
        rowActions={(help) => (
          <>
            <EditRowAction
              label={t('editRecord', { title: help.title })}
              onClick={() => dialog.edit(help)}
            />
            <DeleteRowAction
              label={t('deleteRecord', { title: help.title })}
              onClick={() => deletion.ask(help)}
            />
          </>
        )}
        loading={helps.isPending}
        failed={helps.isError}
        emptyText={t('empty')}
      />
      <ConfirmationDialog
        confirmation={deletion}
        title={(help) => t('confirmDelete.title', { title: help.title })}
        message={t('confirmDelete.message')}
        confirmLabel={t('common:actions.delete')}
      />
      {dialog.open && (
        <HelpDialog key={dialog.key} open help={dialog.record} onClose={dialog.close} />
      )}
    </Box>
  );
}
