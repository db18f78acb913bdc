import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface DialogFooterProps {
  onCancel: () => void;
  /** The main button; without it the footer only closes the dialog ('Fechar'). */
  submitLabel?: string;
  /** Without it the main button submits the dialog's form. */
  onSubmit?: () => void;
  /** The action is running: both buttons wait and the main one spins. */
  pending?: boolean;
  submitDisabled?: boolean;
  /** 'Cancelar', or 'Fechar' when there is no main button. */
  cancelLabel?: string;
  /** Shown at the start of the footer (a link to another page...). */
  start?: ReactNode;
  /** 'danger': the main button deletes or cuts something off, so it is red and focused first. */
  tone?: 'danger';
}

/** The buttons under a dialog: cancel, then the main action with its pending state. */
export function DialogFooter(props: DialogFooterProps) {
  const { onCancel, submitLabel, onSubmit, pending = false, submitDisabled, start, tone } = props;
  const { t } = useTranslation('common');
  const cancelLabel =
    props.cancelLabel ?? (submitLabel === undefined ? t('actions.close') : t('actions.cancel'));
  return (
    <DialogActions sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1 }} disableSpacing>
      {start && <Box sx={{ mr: 'auto', minWidth: 0 }}>{start}</Box>}
      <Button onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </Button>
      {submitLabel !== undefined && (
        <Button
          type={onSubmit ? 'button' : 'submit'}
          variant="contained"
          color={tone === 'danger' ? 'error' : 'primary'}
          autoFocus={tone === 'danger'}
          onClick={onSubmit}
          disabled={pending || submitDisabled}
          startIcon={pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : null}
        >
          {submitLabel}
        </Button>
      )}
    </DialogActions>
  );
}
