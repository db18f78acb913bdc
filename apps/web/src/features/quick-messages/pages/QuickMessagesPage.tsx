import { LIST_SCROLL_THRESHOLD_PX, type QuickMessage, SEARCH_DEBOUNCE_MS } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
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
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteQuickMessage, useQuickMessages } from '../api';
import { QuickMessageDialog } from '../components/QuickMessageDialog';
import { useQuickMessagesRealtime } from '../realtime';

const hideOnPhone = { display: { xs: 'none', sm: 'table-cell' } } as const;
const hideOnTablet = { display: { xs: 'none', md: 'table-cell' } } as const;
const EXCERPT_LENGTH = 80;

const excerpt = (text: string) =>
  text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH).trimEnd()}…` : text;

export function QuickMessagesPage() {
  const { t } = useTranslation('quick-messages');
  const me = useSessionUser();
  useQuickMessagesRealtime(me.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const records = useQuickMessages(searchParam);
  const rows = flattenPages(records.data, 'records');
  const [editing, setEditing] = useState<{ record?: QuickMessage } | null>(null);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  const deleteRecord = useDeleteQuickMessage();
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = records;

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
      await deleteRecord.mutateAsync(deleting.id);
      toast.success(t('toasts.deleted'));
    } catch {
      // the query client already showed the error
    } finally {
      setDeleting(null);
    }
  };

  const loading = records.isPending || isFetchingNextPage;

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
              <TableCell>{t('columns.shortcode')}</TableCell>
              <TableCell sx={hideOnTablet}>{t('columns.message')}</TableCell>
              <TableCell sx={hideOnPhone}>{t('columns.attachment')}</TableCell>
              <TableCell align="center" sx={hideOnPhone}>
                {t('columns.geral')}
              </TableCell>
              <TableCell align="center">{t('columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((record) => (
              <TableRow key={record.id} hover>
                <TableCell sx={{ wordBreak: 'break-word', fontWeight: 500 }}>
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
                </TableCell>
                <TableCell sx={{ ...hideOnTablet, wordBreak: 'break-word', maxWidth: 420 }}>
                  {excerpt(record.message)}
                </TableCell>
                <TableCell sx={{ ...hideOnPhone, wordBreak: 'break-all' }}>
                  {record.mediaName ?? (
                    <Typography variant="body2" color="text.secondary" component="span">
                      {t('noAttachment')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="center" sx={hideOnPhone}>
                  {record.geral ? t('yes') : t('no')}
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('editRecord', { shortcode: record.shortcode })}
                      onClick={() => setEditing({ record })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('deleteRecord', { shortcode: record.shortcode })}
                      onClick={() => setDeleting(record)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
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
                  {records.isError ? t('common:errors.listFailed') : t('empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      {editing && (
        <QuickMessageDialog
          key={editing.record?.id ?? 'new'}
          open
          record={editing.record}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { shortcode: deleting?.shortcode ?? '' })}
        message={t('confirmDelete.message')}
        confirmLabel={t('delete')}
        busy={deleteRecord.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
