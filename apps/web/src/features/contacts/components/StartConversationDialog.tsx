import { type Contact, hasRole, type Ticket } from '@atendi/shared';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../app/api';
import { useSessionUser } from '../../../app/auth';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { toastError } from '../../../app/errors';
import { useQueues } from '../../queues/api';
import { useStartConversation } from '../api';

interface StartConversationDialogProps {
  contact: Contact;
  onClose: () => void;
}

/** The ticket ERR_OTHER_OPEN_TICKET answers with: the contact's live conversation. */
function otherOpenTicket(error: unknown): Ticket | undefined {
  if (!(error instanceof ApiError) || error.code !== 'ERR_OTHER_OPEN_TICKET') return undefined;
  const ticket = (error.body as { ticket?: Ticket } | null)?.ticket;
  return ticket && typeof ticket.uuid === 'string' ? ticket : undefined;
}

/**
 * Opens a conversation with the contact, assigned to the caller. A queue is required unless the
 * caller is an admin (the server's rule too); the caller's first queue is preselected. Admins
 * may choose any queue of the company, as the server lets them, queues of their own or not.
 */
export function StartConversationDialog({ contact, onClose }: StartConversationDialogProps) {
  const { t } = useTranslation('contacts');
  const me = useSessionUser();
  const navigate = useNavigate();
  const titleId = useId();
  const isAdmin = hasRole(me, 'admin');
  const companyQueues = useQueues({ enabled: isAdmin });
  const queueOptions = isAdmin ? (companyQueues.data ?? me.queues) : me.queues;
  const [queueId, setQueueId] = useState<number | ''>(me.queues[0]?.id ?? '');
  const [queueError, setQueueError] = useState(false);
  const [takenBy, setTakenBy] = useState<Ticket | null>(null);
  const start = useStartConversation();

  const submit = async () => {
    if (!isAdmin && queueId === '') {
      setQueueError(true);
      return;
    }
    try {
      const ticket = await start.mutateAsync({
        contactId: contact.id,
        userId: me.id,
        queueId: queueId === '' ? null : queueId,
      });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const existing = otherOpenTicket(error);
      if (existing && existing.userId === me.id) {
        onClose();
        navigate(`/tickets/${existing.uuid}`);
      } else if (existing) {
        setTakenBy(existing);
      } else {
        toastError(error);
      }
    }
  };

  const takenText = takenBy
    ? takenBy.user
      ? t('start.takenBy', {
          user: takenBy.user.name,
          queue: takenBy.queue?.name ?? t('start.noQueue'),
        })
      : t('start.waiting', { queue: takenBy.queue?.name ?? t('start.noQueue') })
    : '';

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t('start.title', { name: contact.name })}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <DialogContentText>{t('start.message')}</DialogContentText>
        <TextField
          id="start-queue"
          select
          label={t('start.queue')}
          fullWidth
          value={queueId}
          onChange={(event) => {
            const value = event.target.value as number | string;
            setQueueId(value === '' ? '' : Number(value));
            setQueueError(false);
          }}
          error={queueError}
          helperText={queueError ? t('start.selectQueue') : undefined}
          slotProps={{
            htmlInput: { 'aria-required': !isAdmin },
            // admins may start with no queue: show that choice instead of an empty box
            select: { displayEmpty: isAdmin },
            inputLabel: { shrink: isAdmin || queueId !== '' },
          }}
        >
          {isAdmin && (
            <MenuItem value="">
              <em>{t('start.noQueue')}</em>
            </MenuItem>
          )}
          {queueOptions.map((queue) => (
            <MenuItem key={queue.id} value={queue.id}>
              {queue.name}
            </MenuItem>
          ))}
          {!isAdmin && me.queues.length === 0 && (
            <MenuItem disabled value="">
              {t('start.noQueues')}
            </MenuItem>
          )}
        </TextField>
        {takenBy && <Alert severity="warning">{takenText}</Alert>}
      </DialogContent>
      <DialogFooter
        onCancel={onClose}
        submitLabel={t('start.confirm')}
        onSubmit={submit}
        pending={start.isPending}
      />
    </Dialog>
  );
}
