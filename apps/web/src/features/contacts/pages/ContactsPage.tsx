import { type Contact, can, LIST_SCROLL_THRESHOLD_PX, SEARCH_DEBOUNCE_MS } from '@atendi/shared';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SearchIcon from '@mui/icons-material/Search';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
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
import { type ChangeEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { toastError } from '../../../app/errors';
import { useDebouncedValue } from '../../../app/hooks';
import { toast } from '../../../app/toast';
import { mediaHref } from '../../messages/api';
import { fetchAllContacts, useContacts, useDeleteContact, useImportContacts } from '../api';
import { ContactDialog } from '../components/ContactDialog';
import { StartConversationDialog } from '../components/StartConversationDialog';
import { CSV_FILE_NAME, contactsCsv, downloadText } from '../csv';
import { flattenPages } from '../pagedCache';
import { useContactsRealtime } from '../realtime';

const hideOnPhone = { display: { xs: 'none', sm: 'table-cell' } } as const;
const hideOnTablet = { display: { xs: 'none', md: 'table-cell' } } as const;
// the primary text needs the paper's white under it for enough contrast (not the page's grey)
const onPage = { bgcolor: 'background.paper' } as const;

/** The total to show: a search past SEARCH_COUNT_LIMIT reads '1000+'. */
const totalOf = (page: { count: number; countExact?: boolean } | undefined, shown: number) =>
  page ? `${page.count}${page.countExact === false ? '+' : ''}` : String(shown);

export function ContactsPage() {
  const { t } = useTranslation('contacts');
  const me = useSessionUser();
  useContactsRealtime(me.companyId);
  const mayDelete = can(me, 'contacts:delete', me.company.plan);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const contacts = useContacts(searchParam);
  const rows = flattenPages(contacts.data, 'contacts');
  const [editing, setEditing] = useState<{ contact?: Contact } | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const [starting, setStarting] = useState<Contact | null>(null);
  const [exporting, setExporting] = useState(false);
  const [importMenu, setImportMenu] = useState<HTMLElement | null>(null);
  const deleteContact = useDeleteContact();
  const importContacts = useImportContacts();
  const fileInput = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = contacts;

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
      await deleteContact.mutateAsync(deleting.id);
      toast.success(t('toasts.deleted'));
    } catch {
      // the query client already showed the error
    } finally {
      setDeleting(null);
    }
  };

  const runImport = async (file: File | null) => {
    try {
      const result = await importContacts.mutateAsync(file);
      toast.success(t('toasts.imported', { imported: result.imported, skipped: result.skipped }));
    } catch {
      // the query client already showed the error
    }
  };

  const onImportFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // the same file chosen twice in a row must fire change again
    event.target.value = '';
    if (file) await runImport(file);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAllContacts(searchParam, contacts.data?.pages ?? []);
      downloadText(contactsCsv(all), CSV_FILE_NAME);
      toast.success(t('toasts.exported', { total: all.length }));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  const loading = contacts.isPending || isFetchingNextPage;

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
        <input
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          hidden
          aria-label={t('importFile')}
          onChange={onImportFile}
        />
        <Button
          id="contacts-import"
          variant="outlined"
          sx={onPage}
          startIcon={<UploadFileIcon />}
          endIcon={<ArrowDropDownIcon />}
          aria-haspopup="menu"
          aria-expanded={importMenu ? 'true' : undefined}
          aria-controls={importMenu ? 'contacts-import-menu' : undefined}
          onClick={(event) => setImportMenu(event.currentTarget)}
          disabled={importContacts.isPending}
        >
          {t('import')}
        </Button>
        <Menu
          id="contacts-import-menu"
          anchorEl={importMenu}
          open={importMenu !== null}
          onClose={() => setImportMenu(null)}
          slotProps={{ list: { 'aria-labelledby': 'contacts-import' } }}
        >
          <MenuItem
            onClick={() => {
              setImportMenu(null);
              void runImport(null);
            }}
          >
            <ListItemIcon>
              <ContactPhoneIcon fontSize="small" />
            </ListItemIcon>
            {t('importPhone')}
          </MenuItem>
          <MenuItem
            onClick={() => {
              setImportMenu(null);
              fileInput.current?.click();
            }}
          >
            <ListItemIcon>
              <UploadFileIcon fontSize="small" />
            </ListItemIcon>
            {t('importCsv')}
          </MenuItem>
        </Menu>
        <Button
          variant="outlined"
          sx={onPage}
          startIcon={<DownloadIcon />}
          onClick={exportCsv}
          disabled={exporting}
        >
          {t('export')}
        </Button>
        <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setEditing({})}>
          {t('add')}
        </Button>
      </PageHeader>
      {(importContacts.isPending || exporting) && (
        <LinearProgress
          aria-label={importContacts.isPending ? t('importing') : t('exporting')}
          sx={{ mb: 1 }}
        />
      )}

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
              <TableCell sx={{ width: 56, ...hideOnPhone }}>
                <Box component="span" sx={visuallyHidden}>
                  {t('columns.picture')}
                </Box>
              </TableCell>
              <TableCell>{t('columns.name')}</TableCell>
              <TableCell sx={hideOnPhone}>{t('columns.number')}</TableCell>
              <TableCell sx={hideOnTablet}>{t('columns.email')}</TableCell>
              <TableCell align="center">{t('columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((contact) => (
              <TableRow key={contact.id} hover>
                <TableCell sx={hideOnPhone}>
                  <Avatar
                    src={mediaHref(contact.profilePicUrl)}
                    alt=""
                    sx={{ width: 36, height: 36 }}
                  >
                    {contact.name.trim().charAt(0).toUpperCase()}
                  </Avatar>
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>
                  {contact.name}
                  {/* phones have no number and email columns: they go under the name */}
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    sx={{ display: { sm: 'none' }, wordBreak: 'break-all' }}
                  >
                    {contact.number}
                  </Typography>
                  {contact.email && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      component="div"
                      sx={{ display: { md: 'none' }, wordBreak: 'break-all' }}
                    >
                      {contact.email}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ ...hideOnPhone, wordBreak: 'break-all' }}>
                  {contact.number}
                </TableCell>
                <TableCell sx={{ ...hideOnTablet, wordBreak: 'break-all' }}>
                  {contact.email}
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('startConversation')}>
                    <IconButton
                      size="small"
                      aria-label={t('startConversationWith', { name: contact.name })}
                      onClick={() => setStarting(contact)}
                    >
                      <WhatsAppIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('editContact', { name: contact.name })}
                      onClick={() => setEditing({ contact })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {mayDelete && (
                    <Tooltip title={t('delete')}>
                      <IconButton
                        size="small"
                        aria-label={t('deleteContact', { name: contact.name })}
                        onClick={() => setDeleting(contact)}
                      >
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
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
                  {contacts.isError ? t('common:errors.listFailed') : t('empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {contacts.data && rows.length > 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ mt: 1 }} aria-live="polite">
          {t('shown', {
            shown: rows.length,
            total: totalOf(contacts.data.pages[0], rows.length),
          })}
        </Typography>
      )}

      {editing && (
        <ContactDialog
          key={editing.contact?.id ?? 'new'}
          open
          contact={editing.contact}
          onClose={() => setEditing(null)}
        />
      )}
      {starting && (
        <StartConversationDialog
          key={starting.id}
          contact={starting}
          onClose={() => setStarting(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        message={t('confirmDelete.message')}
        confirmLabel={t('delete')}
        busy={deleteContact.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
