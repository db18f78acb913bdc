import { type Help, type HelpCreate, helpCreateSchema } from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { useSaveHelp } from '../api';

interface HelpFormValues {
  title: string;
  video: string;
  description: string;
}

const FORM_FIELDS = ['title', 'video', 'description'] as const;

interface HelpDialogProps {
  open: boolean;
  onClose: () => void;
  help?: Help;
}

/** The super user's help video form: title, the video's code on its host, description. */
export function HelpDialog({ open, onClose, help }: HelpDialogProps) {
  const { t } = useTranslation('helps');
  const validationText = useValidationText();
  const save = useSaveHelp();
  const editing = help !== undefined;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<HelpFormValues, HelpCreate>(helpCreateSchema, {
    title: help?.title ?? '',
    video: help?.video ?? '',
    description: help?.description ?? '',
  });

  const onSubmit = handleSubmit(async (data) => {
    await submitRecord({
      save: () => save.mutateAsync({ id: help?.id, data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      otherwise: () => toast.error(t('errors.saveFailed')),
    });
  });

  const message = (text: string | undefined) =>
    text === 'Invalid video code' ? t('errors.videoCode') : validationText(text);

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
        id="help-title"
        label={t('fields.title')}
        fullWidth
        autoFocus
        autoComplete="off"
        error={Boolean(errors.title)}
        helperText={message(errors.title?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 100 } }}
        {...muiField(register('title'))}
      />
      <TextField
        id="help-video"
        label={t('fields.video')}
        fullWidth
        autoComplete="off"
        error={Boolean(errors.video)}
        helperText={message(errors.video?.message) ?? t('fields.videoHelp')}
        slotProps={{ htmlInput: { maxLength: 100 } }}
        {...muiField(register('video'))}
      />
      <TextField
        id="help-description"
        label={t('fields.description')}
        fullWidth
        multiline
        minRows={3}
        error={Boolean(errors.description)}
        helperText={message(errors.description?.message)}
        {...muiField(register('description'))}
      />
    </FormDialog>
  );
}
