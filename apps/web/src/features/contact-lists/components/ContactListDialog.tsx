import { type ContactList, type ContactListCreate, contactListCreateSchema } from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveContactList } from '../api';

interface ContactListDialogProps {
  open: boolean;
  onClose: () => void;
  list?: ContactList;
}

export function ContactListDialog({ open, onClose, list }: ContactListDialogProps) {
  const { t } = useTranslation('contactLists');
  const validationText = useValidationText();
  const save = useSaveContactList();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<{ name: string }, ContactListCreate>(contactListCreateSchema, {
    name: list?.name ?? '',
  });

  const onSubmit = handleSubmit((data) =>
    submitRecord({
      save: () => save.mutateAsync({ id: list?.id, data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: ['name'],
    }),
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={list ? t('dialog.editTitle') : t('dialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={list ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      maxWidth="xs"
    >
      <TextField
        id="contact-list-name"
        label={t('fields.name')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={validationText(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('name'))}
      />
    </FormDialog>
  );
}
