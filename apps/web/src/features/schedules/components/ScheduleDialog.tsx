import {
  MEDIA_MAX_BYTES,
  SCHEDULE_BODY_MIN,
  SCHEDULE_MEDIA_TYPES,
  SCHEDULE_MSG,
  type Schedule,
} from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { addHours } from 'date-fns';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { closedOnMediaFailure } from '../../../app/attachments';
import { fromZoneInput, useClock } from '../../../app/clock';
import { AttachmentField, useAttachment } from '../../../app/components/AttachmentField';
import { FormDialog } from '../../../app/components/FormDialog';
import { toastError } from '../../../app/errors';
import { applyServerFieldErrors } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { ContactPicker, type PickedContact } from '../../contacts/components/ContactPicker';
import { useSaveSchedule } from '../api';

const formSchema = z.object({
  contact: z
    .object({ id: z.number(), name: z.string(), number: z.string() })
    .nullable()
    .refine((contact) => contact !== null, SCHEDULE_MSG.required),
  body: z.string().trim().min(SCHEDULE_BODY_MIN, SCHEDULE_MSG.bodyTooShort),
  sendAt: z
    .string()
    .min(1, SCHEDULE_MSG.required)
    .refine((value) => fromZoneInput(value, 'UTC') !== null, SCHEDULE_MSG.invalidDate),
});

interface FormValues {
  contact: PickedContact | null;
  body: string;
  sendAt: string;
}

const FORM_FIELDS = ['body', 'sendAt'] as const;

interface ScheduleDialogProps {
  open: boolean;
  onClose: () => void;
  /** The schedule to edit (read-only once sent); a new one without it. */
  schedule?: Schedule;
  /** A new schedule's contact (the conversation's `Agendar`). */
  contact?: PickedContact | null;
}

/**
 * The schedule modal (spec core 4 and 5): contact, text, time and an optional image. A sent one
 * shows its status in the title and cannot be saved again.
 */
export function ScheduleDialog({ open, onClose, schedule, contact }: ScheduleDialogProps) {
  const { t } = useTranslation('schedules');
  const clock = useClock();
  const save = useSaveSchedule();
  const readOnly = Boolean(schedule?.sentAt);
  const attachment = useAttachment(schedule?.mediaName);

  const { control, handleSubmit, setError, formState } = useForm<FormValues>({
    resolver: zodResolver(formSchema) as never,
    defaultValues: {
      contact: schedule?.contact ?? contact ?? null,
      body: schedule?.body ?? '',
      sendAt: clock.toInput(schedule ? schedule.sendAt : addHours(new Date(), 1)),
    },
  });

  /** The shared schema's messages (the original product's words) in the user's language. */
  const messageText = (message: string | undefined) => {
    if (message === SCHEDULE_MSG.bodyTooShort) return t('validation.bodyTooShort');
    if (message === SCHEDULE_MSG.required) return t('validation.required');
    if (message === SCHEDULE_MSG.invalidDate) return t('validation.invalidDate');
    return message;
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: schedule?.id,
        data: {
          body: values.body.trim(),
          contactId: values.contact!.id,
          sendAt: clock.fromInput(values.sendAt)!,
        },
        media: attachment.toSave,
      });
      toast.success(t('toasts.saved'));
      onClose();
    } catch (error) {
      if (closedOnMediaFailure(error, (reason) => t('toasts.mediaFailed', { reason }), onClose)) {
        return;
      }
      if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) {
        toastError(error);
      }
    }
  });

  const title = schedule ? t(`status.${schedule.status}`) : t('dialog.addTitle');

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      onSubmit={readOnly ? () => undefined : onSubmit}
      submitLabel={
        readOnly ? undefined : schedule ? t('common:actions.save') : t('common:actions.add')
      }
      pending={formState.isSubmitting}
    >
      {readOnly && schedule?.sentAt && (
        <Typography variant="body2" color="text.secondary">
          {t('dialog.sentAt', { date: clock.dateTime(schedule.sentAt) })}
        </Typography>
      )}
      <Controller
        control={control}
        name="contact"
        render={({ field, fieldState }) => (
          <ContactPicker
            label={t('fields.contact')}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            disabled={readOnly}
            autoFocus={!readOnly && !field.value}
            error={messageText(fieldState.error?.message)}
          />
        )}
      />
      <Controller
        control={control}
        name="body"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            inputRef={field.ref}
            id="schedule-body"
            label={t('fields.body')}
            multiline
            minRows={4}
            maxRows={12}
            fullWidth
            required
            disabled={readOnly}
            autoFocus={!readOnly && Boolean(schedule ?? contact)}
            error={Boolean(fieldState.error)}
            helperText={
              messageText(fieldState.error?.message) ??
              t('fields.bodyHelp', { example: '{{contactName}}' })
            }
          />
        )}
      />
      <Controller
        control={control}
        name="sendAt"
        render={({ field, fieldState }) => (
          <TextField
            {...field}
            inputRef={field.ref}
            id="schedule-send-at"
            type="datetime-local"
            label={t('fields.sendAt')}
            fullWidth
            required
            disabled={readOnly}
            error={Boolean(fieldState.error)}
            helperText={messageText(fieldState.error?.message)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      />
      {(!readOnly || attachment.fileName) && (
        <AttachmentField
          label={t('fields.attachment')}
          fileName={attachment.fileName}
          accept={SCHEDULE_MEDIA_TYPES}
          maxBytes={MEDIA_MAX_BYTES}
          disabled={readOnly}
          texts={{
            attach: t('fields.attach'),
            choose: t('fields.chooseFile'),
            remove: (name) => t('fields.removeFile', { name }),
            tooLarge: t('fields.fileTooLarge', { size: MEDIA_MAX_BYTES / 1024 / 1024 }),
            wrongType: t('fields.wrongType'),
          }}
          onChoose={attachment.choose}
          onRemove={attachment.remove}
        />
      )}
    </FormDialog>
  );
}
