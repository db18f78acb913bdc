import type { Ticket } from '@atendi/shared';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { useConnections } from '../../connections/api';
import { useQueues } from '../../queues/api';
import { useUpdateTicket, useUsersList } from '../api';

interface TransferDialogProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
  onDone: (ticket: Ticket) => void;
}

/**
 * A queue is required; an agent of that queue (or the caller) and a connection are optional (no
 * agent: back to waiting).
 */
export function TransferDialog({ ticket, open, onClose, onDone }: TransferDialogProps) {
  const { t } = useTranslation('tickets');
  const titleId = useId();
  const queues = useQueues();
  const users = useUsersList();
  const me = useSessionUser();
  const connections = useConnections();
  const update = useUpdateTicket();
  const [queueId, setQueueId] = useState<number | ''>('');
  const [userId, setUserId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [tried, setTried] = useState(false);
  // A ticket goes to someone who serves its new queue (the server refuses anyone else), so the
  // agents wait for the queue to be chosen. Keeping it yourself is the one exception: the
  // caller may move a ticket to another queue and go on answering it.
  const usersOfQueue =
    queueId === ''
      ? []
      : (users.data ?? []).filter(
          (user) => user.id === me.id || user.queues?.some((queue) => queue.id === queueId),
        );

  const submit = async () => {
    setTried(true);
    if (queueId === '') return;
    try {
      const moved = await update.mutateAsync({
        id: ticket.id,
        data: {
          transfer: true,
          queueId,
          userId: userId === '' ? null : userId,
          ...(whatsappId === '' ? {} : { whatsappId }),
          status: userId === '' ? 'pending' : 'open',
        },
      });
      onDone(moved);
    } catch {
      // the query client already showed the error
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('transfer.title')}</DialogTitle>
      <DialogContent
        sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
      >
        <TextField
          select
          required
          label={t('transfer.queue')}
          value={queueId}
          onChange={(event) => {
            setQueueId(Number(event.target.value));
            setUserId('');
          }}
          error={tried && queueId === ''}
          helperText={tried && queueId === '' ? t('newTicket.selectQueue') : undefined}
        >
          {(queues.data ?? []).map((queue) => (
            <MenuItem key={queue.id} value={queue.id}>
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('transfer.user')}
          value={userId}
          disabled={queueId === ''}
          helperText={queueId === '' ? t('transfer.queueFirst') : undefined}
          onChange={(event) =>
            setUserId(event.target.value === '' ? '' : Number(event.target.value))
          }
        >
          <MenuItem value="">{t('transfer.noUser')}</MenuItem>
          {usersOfQueue.map((user) => (
            <MenuItem key={user.id} value={user.id}>
              {user.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('transfer.connection')}
          value={whatsappId}
          onChange={(event) =>
            setWhatsappId(event.target.value === '' ? '' : Number(event.target.value))
          }
        >
          <MenuItem value="">{t('transfer.sameConnection')}</MenuItem>
          {(connections.data ?? []).map((connection) => (
            <MenuItem key={connection.id} value={connection.id}>
              {connection.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogFooter
        onCancel={onClose}
        submitLabel={t('transfer.submit')}
        onSubmit={submit}
        pending={update.isPending}
      />
    </Dialog>
  );
}
