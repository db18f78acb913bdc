import type { Announcement } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { flattenPages } from '../../contacts/pagedCache';
import { useAnnouncements, useAnnouncementsRealtime, useDeleteAnnouncement } from '../api';
import { AnnouncementDialog } from '../components/AnnouncementDialog';
import { priorityColor } from '../priority';

export function AnnouncementsPage() {
  const { t } = useTranslation('announcements');
  useAnnouncementsRealtime();
  const search = useListSearch();
  const records = useAnnouncements(search.param);
  const rows = flattenPages(records.data, 'records');
  const dialog = useRecordDialog<Announcement>();
  const deleteRecord = useDeleteAnnouncement();
  const deletion = useConfirmation<Announcement>(
    (record) => deleteRecord.mutateAsync(record.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<Announcement>[] = [
    {
      id: 'title',
      header: t('columns.title'),
      sx: { fontWeight: 500 },
      cell: (record) => record.title,
    },
    {
      id: 'priority',
      header: t('columns.priority'),
      align: 'center',
      cell: (record) => (
        <Chip
          size="small"
          label={t(`priority.${record.priority}`, { defaultValue: String(record.priority) })}
          sx={{ bgcolor: priorityColor(record.priority), color: '#fff' }}
        />
      ),
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
      id: 'status',
      header: t('columns.status'),
      align: 'center',
      cell: (record) => (record.status ? t('status.active') : t('status.inactive')),
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
            label={t('editRecord', { title: record.title })}
            onClick={() => dialog.edit(record)}
          />
          <DeleteRowAction
            label={t('deleteRecord', { title: record.title })}
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
        title: (record) => t('confirmDelete.title', { title: record.title }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <AnnouncementDialog key={dialog.key} open record={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
