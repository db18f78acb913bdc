import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type SxProps, type Theme, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type FormEvent, type ReactNode, useId } from 'react';
import { DialogFooter } from './DialogFooter';

interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** react-hook-form's `handleSubmit(...)` fits; the page never reloads either way. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  /** The main button; without it the dialog only shows its record and the footer closes it. */
  submitLabel?: string;
  /** The form is being sent: the buttons wait and the main one spins. */
  pending?: boolean;
  maxWidth?: 'xs' | 'sm' | 'md';
  /** Phones get the whole screen for the form (the default). */
  fullScreenOnPhone?: boolean;
  /** Replaces the content's one-column grid (two columns from `sm`...). */
  contentSx?: SxProps<Theme>;
  children: ReactNode;
}

/** A dialog that is a form: its title names it, Enter submits it, and the footer acts on it. */
export function FormDialog(props: FormDialogProps) {
  const { open, onClose, title, onSubmit, submitLabel, pending, children } = props;
  const { maxWidth = 'sm', fullScreenOnPhone = true, contentSx } = props;
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const content = contentSx ?? { display: 'grid', gap: 2 };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSubmit(event);
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={fullScreenOnPhone && phone}
    >
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'contents' }}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent
          dividers
          // a full-screen dialog's content is taller than its fields: they stay together at the
          // top instead of spreading over the screen
          sx={[{ alignContent: 'start' }, ...(Array.isArray(content) ? content : [content])]}
        >
          {children}
        </DialogContent>
        <DialogFooter onCancel={onClose} submitLabel={submitLabel} pending={pending} />
      </Box>
    </Dialog>
  );
}
