import {
  type ContactImportProgress,
  type ContactListImportResult,
  type ContactListItem,
  LEGACY_XLS_MESSAGE,
  NO_NUMBER_COLUMN_MESSAGE,
} from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { visuallyHidden } from '../../../app/a11y';
import { ApiError } from '../../../app/api';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { toastError } from '../../../app/errors';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import {
  EXAMPLE_SHEET_HREF,
  useContactList,
  useContactListItems,
  useDeleteContactListItem,
  useImportContactList,
} from '../api';
import { ContactListItemDialog } from '../components/ContactListItemDialog';
import { useContactListItemsRealtime } from '../realtime';

/** Outlined buttons on the grey page: on paper, so their text keeps its contrast. */
const onPage = { bgcolor: 'background.paper' } as const;

const FILE_MESSAGES: Record<string, string> = {
  [LEGACY_XLS_MESSAGE]: 'import.legacyXls',
  [NO_NUMBER_COLUMN_MESSAGE]: 'import.noNumberColumn',
};

export function ContactListItemsPage() {
  const { t } = useTranslation('contactLists');
  const navigate = useNavigate();
  const contactListId = Number(useParams().contactListId);
  const list = useContactList(contactListId);
  const search = useListSearch();
  const items = useContactListItems(contactListId, search.param);
  const rows = flattenPages(items.data, 'contacts');
  const dialog = useRecordDialog<ContactListItem>();
  const deleteItem = useDeleteContactListItem(contactListId);
  const deletion = useConfirmation<ContactListItem>(
    (item) => deleteItem.mutateAsync(item.id),
    t('toasts.itemDeleted'),
  );
  const importSheet = useImportContactList(contactListId);
  const [progress, setProgress] = useState<ContactImportProgress | null>(null);
  const [summary, setSummary] = useState<ContactListImportResult | null>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const titleId = useId();
  // only while this page's import runs (the bar is shown from its start to its answer)
  useContactListItemsRealtime(contactListId, (event) =>
    setProgress((current) => (current ? event : current)),
  );

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // the same file chosen twice in a row must fire change again
    event.target.value = '';
    if (file) setChosen(file);
  };

  const runImport = async () => {
    const file = chosen;
    setChosen(null);
    if (!file) return;
    setSummary(null);
    setProgress({ contactListId, rows: 0, percent: 0 });
    try {
      const result = await importSheet.mutateAsync(file);
      setSummary(result);
      toast.success(t('import.done', { imported: result.imported }));
    } catch (error) {
      const field = error instanceof ApiError ? error.body?.fields?.[0]?.message : undefined;
      const key = field ? FILE_MESSAGES[field] : undefined;
      if (key) toast.error(t(key));
      else toastError(error);
    } finally {
      setProgress(null);
    }
  };

  const columns: ListColumn<ContactListItem>[] = [
    {
      id: 'valid',
      header: '#',
      headerSx: { width: 48 },
      cell: (item) => (
        <>
          <WhatsAppIcon
            fontSize="small"
            aria-hidden
            sx={{ color: item.isWhatsappValid ? 'success.main' : 'action.disabled' }}
          />
          <Box component="span" sx={visuallyHidden}>
            {item.isWhatsappValid === true
              ? t('validity.valid')
              : item.isWhatsappValid === false
                ? t('validity.invalid')
                : t('validity.unknown')}
          </Box>
        </>
      ),
    },
    {
      id: 'name',
      header: t('columns.name'),
      cell: (item) => item.name,
    },
    {
      id: 'number',
      header: t('columns.number'),
      cell: (item) => item.number,
    },
    {
      id: 'email',
      header: t('columns.email'),
      cell: (item) => item.email,
    },
  ];

  const importing = importSheet.isPending;
  return (
    <ListPage
      title={list.data?.name ?? t('itemsTitle')}
      search={search}
      actions={
        <>
          <Button
            variant="outlined"
            sx={onPage}
            startIcon={<ArrowBackIcon />}
            onClick={() => navigate('/contact-lists')}
          >
            {t('lists')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".xlsx,.xls,.csv"
            hidden
            aria-label={t('import.file')}
            onChange={onFile}
          />
          <Button
            variant="outlined"
            sx={onPage}
            startIcon={<UploadFileIcon />}
            onClick={() => fileInput.current?.click()}
            disabled={importing}
          >
            {t('import.button')}
          </Button>
          <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
            {t('addContact')}
          </Button>
        </>
      }
      notice={
        <>
          {progress && (
            <Box sx={{ mb: 2 }} role="status">
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                {t('import.progress', { percent: progress.percent, rows: progress.rows })}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={progress.percent}
                aria-label={t('import.progressLabel')}
              />
            </Box>
          )}
          {summary && (
            <Alert
              severity={summary.invalid > 0 ? 'warning' : 'success'}
              sx={{ mb: 2 }}
              onClose={() => setSummary(null)}
            >
              {t('import.summary', {
                rows: summary.rows,
                imported: summary.imported,
                duplicates: summary.duplicates,
                invalid: summary.invalid,
              })}
              {summary.invalidRows.length > 0 && (
                <Box
                  component="ul"
                  sx={{ m: 0, mt: 0.5, pl: 2.5, maxHeight: 120, overflow: 'auto' }}
                >
                  {summary.invalidRows.map((bad) => (
                    <li key={bad.row}>
                      {t('import.invalidRow', { row: bad.row, number: bad.number || '—' })}
                    </li>
                  ))}
                </Box>
              )}
            </Alert>
          )}
        </>
      }
      columns={columns}
      rows={rows}
      rowKey={(item) => item.id}
      rowActions={(item) => (
        <>
          <EditRowAction
            label={t('editContact', { name: item.name })}
            onClick={() => dialog.edit(item)}
          />
          <DeleteRowAction
            label={t('deleteContact', { name: item.name })}
            onClick={() => deletion.ask(item)}
          />
        </>
      )}
      loading={items.isPending}
      failed={items.isError || list.isError}
      emptyText={t('emptyContacts')}
      more={items}
      confirmDelete={{
        confirmation: deletion,
        title: (item) => t('confirmDeleteContact.title', { name: item.name }),
        message: t('confirmDeleteContact.message'),
      }}
    >
      {dialog.open && (
        <ContactListItemDialog
          key={dialog.key}
          open
          contactListId={contactListId}
          item={dialog.record}
          onClose={dialog.close}
        />
      )}
      <Dialog
        open={chosen !== null}
        onClose={() => setChosen(null)}
        aria-labelledby={titleId}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle id={titleId}>{t('import.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t('import.confirmMessage', { file: chosen?.name ?? '' })}
          </DialogContentText>
          <DialogContentText sx={{ mt: 1 }}>
            {t('import.sampleIntro')}{' '}
            <Link href={EXAMPLE_SHEET_HREF} download>
              {t('import.sample')}
            </Link>
          </DialogContentText>
        </DialogContent>
        <DialogFooter
          onCancel={() => setChosen(null)}
          submitLabel={t('import.confirm')}
          onSubmit={() => void runImport()}
        />
      </Dialog>
    </ListPage>
  );
}
