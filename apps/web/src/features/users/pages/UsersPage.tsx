import { LIST_SCROLL_THRESHOLD_PX, SEARCH_DEBOUNCE_MS, type User } from '@atendi/shared';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { useDebouncedValue } from '../../../app/hooks';
import { toast } from '../../../app/toast';
import { useDeleteUser, useUsers } from '../api';
import { UserDialog } from '../components/UserDialog';
import { flattenUsers } from '../users.cache';

const hideOnPhone = { display: { xs: 'none', sm: 'table-cell' } } as const;

export function UsersPage() {
  const { t } = useTranslation('users');
  const me = useSessionUser();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const users = useUsers(searchParam);
  const rows = flattenUsers(users.data);
  const [editing, setEditing] = useState<{ user?: User } | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const deleteUser = useDeleteUser();
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = users;

  const loadMoreIfNear = useCallback(() => {
    const element = scroller.current;
    if (!element || !hasNextPage || isFetchingNextPage) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance <= LIST_SCROLL_THRESHOLD_PX) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // a first page shorter than a tall screen cannot be scrolled: keep loading until it can
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when rows change
  useEffect(loadMoreIfNear, [loadMoreIfNear, rows.length]);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteUser.mutateAsync(deleting.id);
      toast.success(t('toasts.deleted'));
    } catch {
      // the query client already showed the error
    } finally {
      setDeleting(null);
    }
  };

  const loading = users.isPending || isFetchingNextPage;

  return (
    <>
      <PageHeader title={t('title')}>
        <TextField
          size="small"
          type="search"
          placeholder={t('search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ width: { xs: '100%', sm: 260 } }}
        />
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setEditing({})}>
          {t('add')}
        </Button>
      </PageHeader>

      <TableContainer
        component={Paper}
        variant="outlined"
        ref={scroller}
        onScroll={loadMoreIfNear}
        sx={{ flex: 1, minHeight: 240, overflow: 'auto' }}
      >
        <Table stickyHeader size="small" aria-label={t('title')}>
          <TableHead>
            <TableRow>
              <TableCell sx={hideOnPhone}>{t('columns.id')}</TableCell>
              <TableCell>{t('columns.name')}</TableCell>
              <TableCell sx={hideOnPhone}>{t('columns.email')}</TableCell>
              <TableCell>{t('columns.profile')}</TableCell>
              <TableCell align="center">{t('columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((user) => (
              <TableRow key={user.id} hover>
                <TableCell sx={hideOnPhone}>{user.id}</TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>
                  {user.name}
                  {/* phones have no email column: the address goes under the name */}
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    sx={{ display: { sm: 'none' }, wordBreak: 'break-all' }}
                  >
                    {user.email}
                  </Typography>
                </TableCell>
                <TableCell sx={{ ...hideOnPhone, wordBreak: 'break-word' }}>{user.email}</TableCell>
                <TableCell>{t(`profiles.${user.profile}`)}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('editUser', { name: user.name })}
                      onClick={() => setEditing({ user })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={user.id === me.id ? t('cannotDeleteSelf') : t('delete')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('deleteUser', { name: user.name })}
                        disabled={user.id === me.id}
                        onClick={() => setDeleting(user)}
                      >
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {loading && (
              <TableRow>
                <TableCell colSpan={5} sx={{ p: 0 }}>
                  <LinearProgress aria-label={t('common:loading')} />
                </TableCell>
              </TableRow>
            )}
            {!loading && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={5} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {users.isError ? t('common:errors.listFailed') : t('empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      {editing && (
        <UserDialog
          key={editing.user?.id ?? 'new'}
          open
          user={editing.user}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        message={t('confirmDelete.message')}
        confirmLabel={t('delete')}
        busy={deleteUser.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
