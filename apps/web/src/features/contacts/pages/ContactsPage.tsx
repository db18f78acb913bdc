import { type Contact, can } from '@atendi/shared';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DownloadIcon from '@mui/icons-material/Download';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../app/a11y';
import { useSessionUser } from '../../../app/auth';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { toastError } from '../../../app/errors';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { mediaHref } from '../../messages/api';
import { fetchAllContacts, useContacts, useDeleteContact, useImportContacts } from '../api';
import { ContactDialog } from '../components/ContactDialog';
import { StartConversationDialog } from '../components/StartConversationDialog';
import { CSV_FILE_NAME, contactsCsv, downloadText } from '../csv';
import { flattenPages } from '../pagedCache';
import { useContactsRealtime } from '../realtime';

// the primary text needs the paper's white under it for enough contrast (not the page's grey)
const onPage = { bgcolor: 'background.paper' } as const;

/** The total to show: a search past SEARCH_COUNT_LIMIT reads '1000+'. */
const totalOf = (page: { count: number; countExact?: boolean } | undefined, shown: number) =>
  page ? `${page.count}${page.countExact === false ? '+' : ''}` : String(shown);

export function ContactsPage() {
  const { t } = useTranslation('contacts');
  const me = useSessionUser();
  useContactsRealtime();
  const mayDelete = can(me, 'contacts:delete', me.company.plan);
  const search = useListSearch();
  const contacts = useContacts(search.param);
  const rows = flattenPages(contacts.data, 'contacts');
  const dialog = useRecordDialog<Contact>();
  const [starting, setStarting] = useState<Contact | null>(null);
  const [exporting, setExporting] = useState(false);
  const [importMenu, setImportMenu] = useState<HTMLElement | null>(null);
  const deleteContact = useDeleteContact();
  const deletion = useConfirmation<Contact>(
    (contact) => deleteContact.mutateAsync(contact.id),
    t('toasts.deleted'),
  );
  const importContacts = useImportContacts();
  const fileInput = useRef<HTMLInputElement>(null);

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
      const all = await fetchAllContacts(search.param, contacts.data?.pages ?? []);
      downloadText(contactsCsv(all), CSV_FILE_NAME);
      toast.success(t('toasts.exported', { total: all.length }));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  const columns: ListColumn<Contact>[] = [
    {
      id: 'picture',
      header: (
        <Box component="span" sx={visuallyHidden}>
          {t('columns.picture')}
        </Box>
      ),
      headerSx: { width: 56 },
      cell: (contact) => (
        <Avatar src={mediaHref(contact.profilePicUrl)} alt="" sx={{ width: 36, height: 36 }}>
          {contact.name.trim().charAt(0).toUpperCase()}
        </Avatar>
      ),
    },
    {
      id: 'name',
      header: t('columns.name'),
      cell: (contact) => contact.name,
    },
    {
      id: 'number',
      header: t('columns.number'),
      cell: (contact) => contact.number,
    },
    {
      id: 'email',
      header: t('columns.email'),
      cell: (contact) => contact.email,
    },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      actions={
        <>
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
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={dialog.add}>
            {t('add')}
          </Button>
        </>
      }
      notice={
        (importContacts.isPending || exporting) && (
          <LinearProgress
            aria-label={importContacts.isPending ? t('importing') : t('exporting')}
            sx={{ mb: 1 }}
          />
        )
      }
      columns={columns}
      rows={rows}
      rowKey={(contact) => contact.id}
      rowActions={(contact) => (
        <>
          <RowAction
            title={t('startConversation')}
            label={t('startConversationWith', { name: contact.name })}
            icon={<WhatsAppIcon fontSize="small" />}
            onClick={() => setStarting(contact)}
          />
          <EditRowAction
            label={t('editContact', { name: contact.name })}
            onClick={() => dialog.edit(contact)}
          />
          {mayDelete && (
            <DeleteRowAction
              label={t('deleteContact', { name: contact.name })}
              onClick={() => deletion.ask(contact)}
            />
          )}
        </>
      )}
      loading={contacts.isPending}
      failed={contacts.isError}
      emptyText={t('empty')}
      more={contacts}
      footer={
        contacts.data &&
        rows.length > 0 && (
          <Typography variant="caption" color="text.secondary" sx={{ mt: 1 }} aria-live="polite">
            {t('shown', {
              shown: rows.length,
              total: totalOf(contacts.data.pages[0], rows.length),
            })}
          </Typography>
        )
      }
      confirmDelete={{
        confirmation: deletion,
        title: (contact) => t('confirmDelete.title', { name: contact.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <ContactDialog key={dialog.key} open contact={dialog.record} onClose={dialog.close} />
      )}
      {starting && (
        <StartConversationDialog
          key={starting.id}
          contact={starting}
          onClose={() => setStarting(null)}
        />
      )}
    </ListPage>
  );
}
