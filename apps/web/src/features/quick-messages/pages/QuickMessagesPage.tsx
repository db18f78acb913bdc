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
      sx: { wordBreak: 'break-word', fontWeight: 500 },
      cell: (record) => (
        <>
          /{record.shortcode}
          {/* phones and tablets: the text and the file go under the shortcode */}
          <Typography
            variant="caption"
            color="text.secondary"
            component="div"
            sx={{ display: { md: 'none' }, wordBreak: 'break-word', fontWeight: 400 }}
          >
            {excerpt(record.message)}
          </Typography>
          <Typography
            variant="caption"
            color="text.secondary"
            component="div"
            sx={{ display: { sm: 'none' }, fontWeight: 400 }}
          >
            {record.mediaName ?? t('noAttachment')}
            {record.geral ? ` · ${t('geralShort')}` : ''}
          </Typography>
        </>
      ),
    },
    {
      id: 'message',
      header: t('columns.message'),
      hideBelow: 'md',
      sx: { wordBreak: 'break-word', maxWidth: 420 },
      cell: (record) => excerpt(record.message),
    },
    {
      id: 'attachment',
      header: t('columns.attachment'),
      hideBelow: 'sm',
      sx: { wordBreak: 'break-all' },
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
      hideBelow: 'sm',
      cell: (record) => (record.geral ? t('yes') : t('no')),
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
