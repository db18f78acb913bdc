import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../toast';
import { DialogFooter } from './DialogFooter';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, message, confirmLabel, busy, onConfirm, onClose } = props;
  const { t } = useTranslation('common');
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{message}</DialogContentText>
      </DialogContent>
      <DialogFooter
        onCancel={onClose}
        submitLabel={confirmLabel ?? t('actions.confirm')}
        onSubmit={onConfirm}
        pending={busy}
        tone="danger"
      />
    </Dialog>
  );
}

/** A row waiting for a person to confirm an action on it (delete, disconnect...). */
export interface Confirmation<T> {
  target: T | null;
  ask: (target: T) => void;
  close: () => void;
  confirm: () => Promise<void>;
  busy: boolean;
}

/**
 * Holds the row to confirm and runs the action once confirmed: a toast says it is done; a
 * failure was already shown by the query client. The dialog closes either way.
 */
export function useConfirmation<T>(
  run: (target: T) => Promise<unknown>,
  doneText?: string,
): Confirmation<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => setTarget(null), []);
  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await run(target);
      if (doneText) toast.success(doneText);
    } catch {
      // the query client already showed the error
    } finally {
      setBusy(false);
      setTarget(null);
    }
  };
  return { target, ask: setTarget, close, confirm, busy };
}

export interface ConfirmationDialogProps<T> {
  confirmation: Confirmation<T>;
  title: (target: T) => string;
  message: string;
  confirmLabel: string;
}

export function ConfirmationDialog<T>(props: ConfirmationDialogProps<T>) {
  const { confirmation, title, message, confirmLabel } = props;
  const { target } = confirmation;
  // the title keeps its row while the dialog fades out
  const shown = useRef(target);
  if (target !== null) shown.current = target;
  return (
    <ConfirmDialog
      open={target !== null}
      title={shown.current === null ? '' : title(shown.current)}
      message={message}
      confirmLabel={confirmLabel}
      busy={confirmation.busy}
      onConfirm={confirmation.confirm}
      onClose={confirmation.close}
    />
  );
}
