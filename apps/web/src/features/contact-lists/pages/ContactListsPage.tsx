import type { ContactList } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import PeopleIcon from '@mui/icons-material/People';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { flattenPages } from '../../contacts/pagedCache';
import { EXAMPLE_SHEET_HREF, useContactLists, useDeleteContactList } from '../api';
import { ContactListDialog } from '../components/ContactListDialog';
import { useContactListsRealtime } from '../realtime';

export function ContactListsPage() {
  const { t } = useTranslation('contactLists');
  const navigate = useNavigate();
  useContactListsRealtime();
  const search = useListSearch();
  const lists = useContactLists(search.param);
  const rows = flattenPages(lists.data, 'records');
  const dialog = useRecordDialog<ContactList>();
  const deleteList = useDeleteContactList();
  const deletion = useConfirmation<ContactList>(
    (list) => deleteList.mutateAsync(list.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<ContactList>[] = [
    { id: 'name', header: t('columns.name'), cell: (l) => l.name },
    {
      id: 'contacts',
      header: t('columns.contacts'),
      align: 'center',
      cell: (list) => list.contactsCount.toLocaleString(),
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
          <Tooltip title={t('downloadExample')}>
            <IconButton
              size="small"
              component="a"
              href={EXAMPLE_SHEET_HREF}
              download
              aria-label={t('downloadExample')}
            >
              <DownloadIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <RowAction
            title={t('openContacts')}
            label={t('openContactsOf', { name: list.name })}
            icon={<PeopleIcon fontSize="small" />}
            onClick={() => navigate(`/contact-lists/${list.id}/contacts`)}
          />
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
        <ContactListDialog key={dialog.key} open list={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
