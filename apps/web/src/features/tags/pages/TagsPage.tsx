import { LIST_SCROLL_THRESHOLD_PX, SEARCH_DEBOUNCE_MS } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
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
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { useDebouncedValue } from '../../../app/hooks';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteTag, useTags } from '../api';
import { TagDialog, textOn } from '../components/TagDialog';
import { useTagsRealtime } from '../realtime';
import type { TagRow } from '../tags.cache';

export function TagsPage() {
  const { t } = useTranslation('tags');
  const me = useSessionUser();
  useTagsRealtime(me.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const tags = useTags(searchParam);
  const rows = flattenPages(tags.data, 'tags');
  const [editing, setEditing] = useState<{ tag?: TagRow } | null>(null);
  const [deleting, setDeleting] = useState<TagRow | null>(null);
  const deleteTag = useDeleteTag();
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = tags;

  const loadMoreIfNear = useCallback(() => {
    const element = scroller.current;
    if (!element || !hasNextPage || isFetchingNextPage) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance <= LIST_SCROLL_THRESHOLD_PX) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check when rows change
  useEffect(loadMoreIfNear, [loadMoreIfNear, rows.length]);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteTag.mutateAsync(deleting.id);
      toast.success(t('toasts.deleted'));
    } catch {
      // the query client already showed the error
    } finally {
      setDeleting(null);
    }
  };

  const loading = tags.isPending || isFetchingNextPage;

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
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
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
              <TableCell>{t('columns.name')}</TableCell>
              <TableCell align="center">{t('columns.tickets')}</TableCell>
              <TableCell align="center">{t('columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((tag) => (
              <TableRow key={tag.id} hover>
                <TableCell sx={{ maxWidth: 0, width: '100%' }}>
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
                </TableCell>
                <TableCell align="center">{tag.ticketsCount ?? 0}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('editTag', { name: tag.name })}
                      onClick={() => setEditing({ tag })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('deleteTag', { name: tag.name })}
                      onClick={() => setDeleting(tag)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {loading && (
              <TableRow>
                <TableCell colSpan={3} sx={{ p: 0 }}>
                  <LinearProgress aria-label={t('common:loading')} />
                </TableCell>
              </TableRow>
            )}
            {!loading && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {tags.isError ? t('common:errors.listFailed') : t('empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      {editing && (
        <TagDialog
          key={editing.tag?.id ?? 'new'}
          open
          tag={editing.tag}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        message={t('confirmDelete.message')}
        confirmLabel={t('delete')}
        busy={deleteTag.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
