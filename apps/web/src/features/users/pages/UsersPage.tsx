import type { User } from '@atendi/shared';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { useDeleteUser, useUsers } from '../api';
import { UserDialog } from '../components/UserDialog';
import { flattenUsers } from '../users.cache';

export function UsersPage() {
  const { t } = useTranslation('users');
  const me = useSessionUser();
  const search = useListSearch();
  const users = useUsers(search.param);
  const rows = flattenUsers(users.data);
  const dialog = useRecordDialog<User>();
  const deleteUser = useDeleteUser();
  const deletion = useConfirmation<User>(
    (user) => deleteUser.mutateAsync(user.id),
    t('toasts.deleted'),
  );

  const columns: ListColumn<User>[] = [
    { id: 'id', header: t('columns.id'), cell: (user) => user.id },
    {
      id: 'name',
      header: t('columns.name'),
      cell: (user) => user.name,
    },
    {
      id: 'email',
      header: t('columns.email'),
      cell: (user) => user.email,
    },
    { id: 'profile', header: t('columns.profile'), cell: (user) => t(`profiles.${user.profile}`) },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      actions={
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      }
      columns={columns}
      rows={rows}
      rowKey={(user) => user.id}
      rowActions={(user) => (
        <>
          <EditRowAction
            label={t('editUser', { name: user.name })}
            onClick={() => dialog.edit(user)}
          />
          <DeleteRowAction
            label={t('deleteUser', { name: user.name })}
            title={user.id === me.id ? t('cannotDeleteSelf') : undefined}
            disabled={user.id === me.id}
            onClick={() => deletion.ask(user)}
          />
        </>
      )}
      loading={users.isPending}
      failed={users.isError}
      emptyText={t('empty')}
      more={users}
      confirmDelete={{
        confirmation: deletion,
        title: (user) => t('confirmDelete.title', { name: user.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <UserDialog key={dialog.key} open user={dialog.record} onClose={dialog.close} />
      )}
    </ListPage>
  );
}
