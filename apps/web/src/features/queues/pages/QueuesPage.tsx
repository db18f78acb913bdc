import type { Queue } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { useDeleteQueue, useQueues } from '../api';
import { QueueDialog } from '../components/QueueDialog';
import { useQueuesRealtime } from '../realtime';

/** The queues of the company (not paged: GET /queue answers them all), live. */
export function QueuesPage() {
  const { t } = useTranslation('queues');
  useQueuesRealtime();
  const queues = useQueues();
  const dialog = useRecordDialog<Queue>();
  const deleteQueue = useDeleteQueue();
  const deletion = useConfirmation<Queue>(
    (queue) => deleteQueue.mutateAsync(queue.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<Queue>[] = [
    { id: 'id', header: t('columns.id'), cell: (queue) => queue.id },
    {
      id: 'name',
      header: t('columns.name'),
      cell: (queue) => queue.name,
    },
    {
      id: 'color',
      header: t('columns.color'),
      cell: (queue) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box
            role="img"
            aria-label={t('colorSwatch', { color: queue.color })}
            sx={{
              width: 24,
              height: 24,
              borderRadius: 1,
              bgcolor: queue.color,
              border: 1,
              borderColor: 'divider',
              flexShrink: 0,
            }}
          />
          <Typography variant="body2" component="span" aria-hidden sx={{ fontFamily: 'monospace' }}>
            {queue.color}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'orderQueue',
      header: t('columns.orderQueue'),
      align: 'center',
      cell: (queue) => queue.orderQueue ?? '',
    },
    {
      id: 'greeting',
      header: t('columns.greeting'),
      sx: { maxWidth: 0, width: '45%' },
      cell: (queue) => (
        <Typography
          variant="body2"
          title={queue.greetingMessage}
          sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {queue.greetingMessage}
        </Typography>
      ),
    },
  ];

  return (
    <ListPage
      title={t('title')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      }
      columns={columns}
      rows={queues.data ?? []}
      rowKey={(queue) => queue.id}
      rowActions={(queue) => (
        <>
          <EditRowAction
            label={t('editQueue', { name: queue.name })}
            onClick={() => dialog.edit(queue)}
          />
          <DeleteRowAction
            label={t('deleteQueue', { name: queue.name })}
            onClick={() => deletion.ask(queue)}
          />
        </>
      )}
      loading={queues.isPending}
      failed={queues.isError}
      emptyText={t('empty')}
      confirmDelete={{
        confirmation: deletion,
        title: (queue) => t('confirmDelete.title', { name: queue.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <QueueDialog
          key={dialog.key}
          open
          queue={dialog.record}
          takenColors={queues.data?.map((queue) => queue.color)}
          onClose={dialog.close}
        />
      )}
    </ListPage>
  );
}
