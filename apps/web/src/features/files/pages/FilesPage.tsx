import type { FileListRecord } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteFileList, useFileLists } from '../api';
import { FileListDialog } from '../components/FileListDialog';
import { useFileListsRealtime } from '../realtime';

/** File lists (/files and /files-backup): name and actions, a dialog to add and edit. */
export function FilesPage() {
  const { t } = useTranslation('files');
  useFileListsRealtime();
  const search = useListSearch();
  const lists = useFileLists(search.param);
  const rows = flattenPages(lists.data, 'files');
  const dialog = useRecordDialog<FileListRecord>();
  const deleteList = useDeleteFileList();
  const deletion = useConfirmation<FileListRecord>(
    (list) => deleteList.mutateAsync(list.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<FileListRecord>[] = [
    { id: 'name', header: t('columns.name'), cell: (l) => l.name },
    {
      id: 'files',
      header: t('columns.files'),
      align: 'center',
      cell: (list) => list.options.length,
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
      rowKey={(list) => list.id}
      rowActions={(list) => (
        <>
          <EditRowAction
            label={t('editList', { name: list.name })}
            onClick={() => dialog.edit(list)}
          />
          <DeleteRowAction
            label={t('deleteList', { name: list.name })}
            onClick={() => deletion.ask(list)}
          />
        </>
      )}
      loading={lists.isPending}
      failed={lists.isError}
      emptyText={t('empty')}
      more={lists}
      confirmDelete={{
        confirmation: deletion,
        title: (list) => t('confirmDelete.title', { name: list.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <FileListDialog key={dialog.key} open record={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
