import type { Ticket } from '@atendi/shared';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { MessagesList } from '../../messages/components/MessagesList';

/** 'Espiar Conversa': an admin reads a ticket's messages without opening or taking it. */
export function SpyDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation('tickets');
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('spy.title', { name: ticket.contact?.name ?? '' })}</DialogTitle>
      <DialogContent sx={{ p: 0, height: '70vh', display: 'flex', flexDirection: 'column' }}>
        <MessagesList ticket={ticket} readOnly />
      </DialogContent>
      <DialogFooter onCancel={onClose} />
    </Dialog>
  );
}
