import {
  type FileListCreate,
  type FileListRecord,
  fileListCreateSchema,
  MEDIA_MAX_BYTES,
  MEDIA_UPLOAD_TYPES,
} from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { closedOnMediaFailure } from '../../../app/attachments';
import { AttachmentField } from '../../../app/components/AttachmentField';
import { FormDialog } from '../../../app/components/FormDialog';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveFileList } from '../api';

export interface FileListFormValues {
  name: string;
  message: string;
  options: { id?: number; name: string; mediaName: string | null }[];
}

const FORM_FIELDS = ['name', 'message', 'options'] as const;

interface FileListDialogProps {
  open: boolean;
  onClose: () => void;
  record?: FileListRecord;
}

/** A file list: its name, its message and its options, each a name and a file. */
export function FileListDialog({ open, onClose, record }: FileListDialogProps) {
  const { t } = useTranslation('files');
  const validationText = useValidationText();
  const save = useSaveFileList();
  /**
   * Files chosen in this dialog, by the option row's key; null when the row's stored file was
   * put aside to choose another (it stays on the server until another replaces it).
   */
  const [chosen, setChosen] = useState<Record<string, File | null | undefined>>({});
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<FileListFormValues, FileListCreate>(fileListCreateSchema, {
    name: record?.name ?? '',
    message: record?.message ?? '',
    options: (record?.options ?? []).map((option) => ({
      id: option.id,
      name: option.name,
      mediaName: option.mediaName,
    })),
  });
  const options = useFieldArray({ control, name: 'options' });

  const onSubmit = handleSubmit((values) =>
    submitRecord({
      save: () =>
        save.mutateAsync({
          id: record?.id,
          data: {
            name: values.name,
            message: values.message,
            options: (values.options ?? []).map((option) => ({ id: option.id, name: option.name })),
          },
          uploads: options.fields.map((field) => chosen[field.id] ?? undefined),
        }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) =>
        // the list is saved: closing avoids saving it twice on a retry
        closedOnMediaFailure(error, (reason) => t('toasts.uploadFailed', { reason }), onClose),
    }),
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={record ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={record ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
    >
      <TextField
        id="file-list-name"
        label={t('fields.name')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={validationText(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 100 } }}
        {...muiField(register('name'))}
      />
      <TextField
        id="file-list-message"
        label={t('fields.message')}
        multiline
        minRows={3}
        maxRows={10}
        fullWidth
        error={Boolean(errors.message)}
        helperText={validationText(errors.message?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 10_000 } }}
        {...muiField(register('message'))}
      />
      <Typography variant="subtitle2" component="h3">
        {t('fields.options')}
      </Typography>
      {options.fields.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('fields.noOptions')}
        </Typography>
      )}
      {options.fields.map((field, index) => {
        const file = chosen[field.id];
        const fileName = file ? file.name : file === null ? null : field.mediaName;
        return (
          <Paper
            key={field.id}
            variant="outlined"
            sx={{ p: 1.5, display: 'flex', flexDirection: 'column', gap: 1.5 }}
            role="group"
            aria-label={t('fields.optionNumber', { number: index + 1 })}
          >
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <TextField
                id={`file-list-option-${index}`}
                label={t('fields.optionName')}
                size="small"
                autoComplete="off"
                fullWidth
                error={Boolean(errors.options?.[index]?.name)}
                helperText={validationText(errors.options?.[index]?.name?.message)}
                slotProps={{ htmlInput: { 'aria-required': true, maxLength: 100 } }}
                {...muiField(register(`options.${index}.name`))}
              />
              <IconButton
                aria-label={t('fields.removeOption', { number: index + 1 })}
                onClick={() => {
                  setChosen(({ [field.id]: _dropped, ...rest }) => rest);
                  options.remove(index);
                }}
              >
                <DeleteOutlineIcon />
              </IconButton>
            </Box>
            <AttachmentField
              label={t('fields.file')}
              fileName={fileName}
              accept={MEDIA_UPLOAD_TYPES}
              maxBytes={MEDIA_MAX_BYTES}
              texts={{
                attach: t('fields.attach'),
                choose: t('fields.chooseFile', { number: index + 1 }),
                remove: (name) => t('fields.removeFile', { name }),
                tooLarge: t('fields.fileTooLarge', { size: MEDIA_MAX_BYTES / 1024 / 1024 }),
                wrongType: t('fields.wrongType'),
              }}
              onChoose={(picked) => setChosen((current) => ({ ...current, [field.id]: picked }))}
              onRemove={() => setChosen((current) => ({ ...current, [field.id]: null }))}
            />
          </Paper>
        );
      })}
      <Box>
        <Button
          startIcon={<AddIcon />}
          onClick={() => options.append({ name: '', mediaName: null })}
        >
          {t('fields.addOption')}
        </Button>
      </Box>
    </FormDialog>
  );
}
