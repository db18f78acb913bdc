import {
  hasRole,
  MEDIA_MAX_BYTES,
  MEDIA_UPLOAD_TYPES,
  type QuickMessage,
  type QuickMessageCreate,
  quickMessageCreateSchema,
} from '@atendi/shared';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { closedOnMediaFailure } from '../../../app/attachments';
import { useSessionUser } from '../../../app/auth';
import { AttachmentField, useAttachment } from '../../../app/components/AttachmentField';
import { FormDialog } from '../../../app/components/FormDialog';
import { SwitchField } from '../../../app/components/FormFields';
import { IdSelect } from '../../../app/components/IdSelect';
import { errorMessage } from '../../../app/errors';
import { submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useQueues } from '../../queues/api';
import { useSaveQuickMessage } from '../api';

/** The variables the server fills in when the reply is sent (spec core 3). */
export const MESSAGE_VARIABLES = [
  'contactFirstName',
  'contactName',
  'greeting',
  'protocolNumber',
  'date',
  'hour',
] as const;

export interface QuickMessageFormValues {
  shortcode: string;
  message: string;
  geral: boolean;
  queueId: number | null;
}

const FORM_FIELDS = ['shortcode', 'message', 'geral', 'queueId'] as const;

interface QuickMessageDialogProps {
  open: boolean;
  onClose: () => void;
  record?: QuickMessage;
}

export function QuickMessageDialog({ open, onClose, record }: QuickMessageDialogProps) {
  const { t } = useTranslation('quick-messages');
  const validationText = useValidationText();
  const variablesId = useId();
  const editing = record !== undefined;
  const save = useSaveQuickMessage();
  const messageInput = useRef<HTMLTextAreaElement | null>(null);
  const attachment = useAttachment(record?.mediaName);
  // an admin shares a reply with one queue's agents
  const admin = hasRole(useSessionUser(), 'admin');
  const queues = useQueues({ enabled: admin });

  const {
    register,
    control,
    handleSubmit,
    setError,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useRecordForm<QuickMessageFormValues, QuickMessageCreate>(quickMessageCreateSchema, {
    shortcode: record?.shortcode ?? '',
    message: record?.message ?? '',
    geral: record?.geral ?? false,
    queueId: record?.queueId ?? null,
  });
  const shortcode = register('shortcode');
  const message = register('message');

  /** Puts `{{name}}` where the cursor is (or at the end), keeping the cursor after it. */
  const insertVariable = (name: string) => {
    const token = `{{${name}}}`;
    const current = getValues('message') ?? '';
    const element = messageInput.current;
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    setValue('message', current.slice(0, start) + token + current.slice(end), {
      shouldDirty: true,
    });
    requestAnimationFrame(() => {
      if (!element) return;
      element.focus();
      element.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const onSubmit = handleSubmit(async (values) => {
    await submitRecord({
      save: () =>
        save.mutateAsync({
          id: record?.id,
          data: {
            shortcode: values.shortcode,
            message: values.message ?? '',
            geral: values.geral,
            ...(admin ? { queueId: values.queueId ?? null } : {}),
          },
          media: attachment.toSave,
        }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) => {
        // the text is saved: closing avoids saving it twice on a retry
        if (closedOnMediaFailure(error, (reason) => t('toasts.mediaFailed', { reason }), onClose)) {
          return true;
        }
        if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_SHORTCODE') {
          setError(
            'shortcode',
            { type: 'server', message: errorMessage(error) },
            { shouldFocus: true },
          );
          return true;
        }
        return false;
      },
    });
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={editing ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
    >
      <TextField
        id="quick-message-shortcode"
        label={t('fields.shortcode')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.shortcode)}
        helperText={validationText(errors.shortcode?.message) ?? t('fields.shortcodeHelp')}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 100 } }}
        name={shortcode.name}
        onChange={shortcode.onChange}
        onBlur={shortcode.onBlur}
        inputRef={shortcode.ref}
      />
      <TextField
        id="quick-message-message"
        label={t('fields.message')}
        multiline
        minRows={4}
        maxRows={12}
        fullWidth
        error={Boolean(errors.message)}
        helperText={validationText(errors.message?.message)}
        slotProps={{ htmlInput: { maxLength: 10_000 } }}
        name={message.name}
        onChange={message.onChange}
        onBlur={message.onBlur}
        inputRef={(element: HTMLTextAreaElement | null) => {
          message.ref(element);
          messageInput.current = element;
        }}
      />
      <Box role="group" aria-labelledby={variablesId}>
        <Typography
          id={variablesId}
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ mb: 0.5 }}
        >
          {t('fields.variables')}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {MESSAGE_VARIABLES.map((name) => (
            <Chip
              key={name}
              size="small"
              variant="outlined"
              label={`{{${name}}}`}
              aria-label={t('fields.insertVariable', { name: t(`variables.${name}`) })}
              title={t(`variables.${name}`)}
              onClick={() => insertVariable(name)}
            />
          ))}
        </Box>
      </Box>
      <SwitchField control={control} name="geral" label={t('fields.geral')} />
      {admin && (
        <Controller
          control={control}
          name="queueId"
          render={({ field }) => (
            <IdSelect
              id="quick-message-queue"
              label={t('fields.queue')}
              noneLabel={t('fields.noQueue')}
              options={queues.data ?? []}
              field={field}
              error={Boolean(errors.queueId)}
              helperText={validationText(errors.queueId?.message) ?? t('fields.queueHelp')}
            />
          )}
        />
      )}
      <AttachmentField
        label={t('fields.attachment')}
        fileName={attachment.fileName}
        accept={MEDIA_UPLOAD_TYPES}
        maxBytes={MEDIA_MAX_BYTES}
        texts={{
          attach: t('fields.attach'),
          choose: t('fields.chooseFile'),
          remove: (name) => t('fields.removeFile', { name }),
          tooLarge: t('fields.fileTooLarge', { size: MEDIA_MAX_BYTES / 1024 / 1024 }),
        }}
        onChoose={attachment.choose}
        onRemove={attachment.remove}
      />
    </FormDialog>
  );
}
