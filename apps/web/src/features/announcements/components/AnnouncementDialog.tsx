import { ANNOUNCEMENT_MEDIA_TYPES, type Announcement, MEDIA_MAX_BYTES, MSG } from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { closedOnMediaFailure } from '../../../app/attachments';
import { AttachmentField, useAttachment } from '../../../app/components/AttachmentField';
import { FormDialog } from '../../../app/components/FormDialog';
import { SelectField } from '../../../app/components/FormFields';
import { submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveAnnouncement } from '../api';

const required = (max: number) => z.string().trim().min(1, MSG.required).max(max, MSG.tooLong);

const formSchema = z.object({
  title: required(200),
  text: required(10_000),
  status: z.enum(['true', 'false']),
  priority: z.enum(['1', '2', '3']),
});
type FormValues = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

const FORM_FIELDS = ['title', 'text', 'status', 'priority'] as const;

interface AnnouncementDialogProps {
  open: boolean;
  onClose: () => void;
  record?: Announcement;
}

export function AnnouncementDialog({ open, onClose, record }: AnnouncementDialogProps) {
  const { t } = useTranslation('announcements');
  const validationText = useValidationText();
  const editing = record !== undefined;
  const save = useSaveAnnouncement();
  const attachment = useAttachment(record?.mediaName);

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<FormValues, FormOutput>(formSchema, {
    title: record?.title ?? '',
    text: record?.text ?? '',
    status: record?.status === false ? 'false' : 'true',
    priority: String(record?.priority ?? 3) as FormValues['priority'],
  });
  const title = register('title');
  const text = register('text');

  const onSubmit = handleSubmit(async (values) => {
    await submitRecord({
      save: () =>
        save.mutateAsync({
          id: record?.id,
          data: {
            title: values.title,
            text: values.text,
            status: values.status === 'true',
            priority: Number(values.priority),
          },
          media: attachment.toSave,
        }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) =>
        closedOnMediaFailure(error, (reason) => t('toasts.mediaFailed', { reason }), onClose),
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
        id="announcement-title"
        label={t('fields.title')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.title)}
        helperText={validationText(errors.title?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 200 } }}
        name={title.name}
        onChange={title.onChange}
        onBlur={title.onBlur}
        inputRef={title.ref}
      />
      <TextField
        id="announcement-text"
        label={t('fields.text')}
        multiline
        minRows={4}
        maxRows={12}
        fullWidth
        error={Boolean(errors.text)}
        helperText={validationText(errors.text?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 10_000 } }}
        name={text.name}
        onChange={text.onChange}
        onBlur={text.onBlur}
        inputRef={text.ref}
      />
      <SelectField
        control={control}
        name="status"
        id="announcement-status"
        label={t('fields.status')}
        options={[
          { value: 'true', label: t('status.active') },
          { value: 'false', label: t('status.inactive') },
        ]}
      />
      <SelectField
        control={control}
        name="priority"
        id="announcement-priority"
        label={t('fields.priority')}
        options={[
          { value: '1', label: t('priority.1') },
          { value: '2', label: t('priority.2') },
          { value: '3', label: t('priority.3') },
        ]}
      />
      <AttachmentField
        label={t('fields.attachment')}
        fileName={attachment.fileName}
        accept={ANNOUNCEMENT_MEDIA_TYPES}
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
