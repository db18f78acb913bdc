import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteTag, useTags } from '../api';
import { TagDialog, textOn } from '../components/TagDialog';
import { useTagsRealtime } from '../realtime';
import type { TagRow } from '../tags.cache';

export function TagsPage() {
  const { t } = useTranslation('tags');
  useTagsRealtime();
  const search = useListSearch();
  const tags = useTags(search.param);
  const rows = flattenPages(tags.data, 'tags');
  const dialog = useRecordDialog<TagRow>();
  const deleteTag = useDeleteTag();
  const deletion = useConfirmation<TagRow>(
    (tag) => deleteTag.mutateAsync(tag.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<TagRow>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      sx: { maxWidth: 0, width: '100%' },
      cell: (tag) => (
        <>
          <Chip
            label={tag.name}
            size="small"
            sx={{ bgcolor: tag.color, color: textOn(tag.color), maxWidth: '100%' }}
          />
          {tag.kanban === 1 && (
            <Chip
              label={t('kanban')}
              size="small"
              variant="outlined"
              sx={{ ml: 1, display: { xs: 'none', sm: 'inline-flex' } }}
            />
          )}
        </>
      ),
    },
    {
      id: 'tickets',
      header: t('columns.tickets'),
      align: 'center',
      cell: (tag) => tag.ticketsCount ?? 0,
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
      rowKey={(tag) => tag.id}
      rowActions={(tag) => (
        <>
          <EditRowAction
            label={t('editTag', { name: tag.name })}
            onClick={() => dialog.edit(tag)}
          />
          <DeleteRowAction
            label={t('deleteTag', { name: tag.name })}
            onClick={() => deletion.ask(tag)}
          />
        </>
      )}
      loading={tags.isPending}
      failed={tags.isError}
      emptyText={t('empty')}
      more={tags}
      confirmDelete={{
        confirmation: deletion,
        title: (tag) => t('confirmDelete.title', { name: tag.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <TagDialog key={dialog.key} open tag={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
