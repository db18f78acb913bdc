import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

interface SimpleFormDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** The small forms of the simulator (contact, location, contact card) share this frame. */
export function SimpleFormDialog(props: SimpleFormDialogProps) {
  const { open, title, submitLabel, onSubmit, onClose, children } = props;
  const { t } = useTranslation('common');
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'contents' }}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
          {children}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" variant="contained">
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
