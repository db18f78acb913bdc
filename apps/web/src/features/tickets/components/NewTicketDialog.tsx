import { hasRole, type Ticket } from '@atendi/shared';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../app/api';
import { useSessionUser } from '../../../app/auth';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { toastError } from '../../../app/errors';
import { useRecordForm } from '../../../app/forms';
import { ContactPicker, type PickedContact } from '../../contacts/components/ContactPicker';
import { useQueues } from '../../queues/api';
import { useCreateTicket } from '../api';

interface NewTicketDialogProps {
  open: boolean;
  onClose: () => void;
  onOpened: (ticket: Ticket) => void;
}

interface FormValues {
  contactId: number | null;
  queueId: number | '';
}

/** Starts a conversation with a contact; a contact already in one shows who holds it. */
export function NewTicketDialog({ open, onClose, onOpened }: NewTicketDialogProps) {
  const { t } = useTranslation('tickets');
  const me = useSessionUser();
  const admin = hasRole(me, 'admin');
  const titleId = useId();
  const [picked, setPicked] = useState<PickedContact | null>(null);
  const [heldBy, setHeldBy] = useState<Ticket | null>(null);
  const queues = useQueues();
  const create = useCreateTicket();
  const queueOptions = admin ? (queues.data ?? []) : me.queues;

  const schema = useMemo(
    () =>
      z
        .object({ contactId: z.number().nullable(), queueId: z.union([z.number(), z.literal('')]) })
        .superRefine((values, ctx) => {
          if (values.contactId === null) {
            ctx.addIssue({
              code: 'custom',
              path: ['contactId'],
              message: t('newTicket.pickContact'),
            });
          }
          // a queue must be chosen unless the user is an admin (spec core 5)
          if (values.queueId === '' && !admin) {
            ctx.addIssue({
              code: 'custom',
              path: ['queueId'],
              message: t('newTicket.selectQueue'),
            });
          }
        }),
    [admin, t],
  );

  const { control, handleSubmit, formState } = useRecordForm<FormValues>(schema, {
    contactId: null,
    queueId: queueOptions.length === 1 ? queueOptions[0]!.id : '',
  });

  const submit = handleSubmit(async (values) => {
    setHeldBy(null);
    try {
      const ticket = await create.mutateAsync({
        contactId: values.contactId!,
        queueId: values.queueId === '' ? null : values.queueId,
        userId: me.id,
        status: 'open',
      });
      onOpened(ticket);
    } catch (error) {
      const existing =
        error instanceof ApiError ? (error.body as { ticket?: Ticket } | null)?.ticket : undefined;
      if (error instanceof ApiError && error.code === 'ERR_OTHER_OPEN_TICKET' && existing) {
        if (existing.userId && existing.userId !== me.id) setHeldBy(existing);
        else onOpened(existing);
        return;
      }
      toastError(error);
    }
  });

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('newTicket.title')}</DialogTitle>
        <DialogContent
          sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
        >
          <Controller
            control={control}
            name="contactId"
            render={({ field, fieldState }) => (
              <ContactPicker
                label={t('newTicket.contact')}
                value={picked}
                autoFocus
                error={fieldState.error?.message}
                onChange={(contact) => {
                  setPicked(contact);
                  setHeldBy(null);
                  field.onChange(contact?.id ?? null);
                }}
              />
            )}
          />
          <Controller
            control={control}
            name="queueId"
            render={({ field, fieldState }) => (
              <TextField
                select
                label={t('newTicket.queue')}
                value={field.value}
                onChange={(event) =>
                  field.onChange(event.target.value === '' ? '' : Number(event.target.value))
                }
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
              >
                {admin && <MenuItem value="">{t('newTicket.noQueue')}</MenuItem>}
                {queueOptions.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {heldBy && (
            <Alert severity="warning" role="alert">
              {t('newTicket.heldBy', {
                user: heldBy.user?.name ?? '',
                queue: heldBy.queue?.name ?? t('noQueue'),
              })}
            </Alert>
          )}
        </DialogContent>
        <DialogFooter
          onCancel={onClose}
          submitLabel={t('newTicket.start')}
          pending={formState.isSubmitting || create.isPending}
        />
      </form>
    </Dialog>
  );
}
