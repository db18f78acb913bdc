import type { QuickMessage } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { flattenPages } from '../../contacts/pagedCache';
import { useQueues } from '../../queues/api';
import { useDeleteQuickMessage, useQuickMessages } from '../api';
import { QuickMessageDialog } from '../components/QuickMessageDialog';
import { useQuickMessagesRealtime } from '../realtime';

const EXCERPT_LENGTH = 80;

const excerpt = (text: string) =>
  text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH).trimEnd()}…` : text;

export function QuickMessagesPage() {
  const { t } = useTranslation('quick-messages');
  useQuickMessagesRealtime();
  const search = useListSearch();
  const records = useQuickMessages(search.param);
  const rows = flattenPages(records.data, 'records');
  const queues = useQueues();
  const queueName = (id: number | null) =>
    id === null ? undefined : queues.data?.find((queue) => queue.id === id)?.name;
  const dialog = useRecordDialog<QuickMessage>();
  const deleteRecord = useDeleteQuickMessage();
  const deletion = useConfirmation<QuickMessage>(
    (record) => deleteRecord.mutateAsync(record.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<QuickMessage>[] = [
    {
      id: 'shortcode',
      header: t('columns.shortcode'),
      sx: { fontWeight: 500 },
      cell: (record) => `/${record.shortcode}`,
    },
    {
      id: 'message',
      header: t('columns.message'),
      sx: { maxWidth: 420 },
      cell: (record) => excerpt(record.message),
    },
    {
      id: 'attachment',
      header: t('columns.attachment'),
      cell: (record) =>
        record.mediaName ?? (
          <Typography variant="body2" color="text.secondary" component="span">
            {t('noAttachment')}
          </Typography>
        ),
    },
    {
      id: 'geral',
      header: t('columns.geral'),
      align: 'center',
      cell: (record) => (record.geral ? t('yes') : t('no')),
    },
    {
      id: 'queue',
      header: t('columns.queue'),
      align: 'center',
      cell: (record) => queueName(record.queueId) ?? '—',
    },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      }
      columns={columns}
      rows={rows}
      rowKey={(record) => record.id}
      rowActions={(record) => (
        <>
          <EditRowAction
            label={t('editRecord', { shortcode: record.shortcode })}
            onClick={() => dialog.edit(record)}
          />
          <DeleteRowAction
            label={t('deleteRecord', { shortcode: record.shortcode })}
            onClick={() => deletion.ask(record)}
          />
        </>
      )}
      loading={records.isPending}
      failed={records.isError}
      emptyText={t('empty')}
      more={records}
      confirmDelete={{
        confirmation: deletion,
        title: (record) => t('confirmDelete.title', { shortcode: record.shortcode }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <QuickMessageDialog key={dialog.key} open record={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
