import {
  type ContactListItem,
  type ContactListItemCreate,
  contactListItemCreateSchema,
  INVALID_NUMBER_MESSAGE,
} from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { FormDialog } from '../../../app/components/FormDialog';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveContactListItem } from '../api';

interface ItemFormValues {
  name: string;
  number: string;
  email: string;
  contactListId: number;
}

const FIELDS = ['name', 'number', 'email'] as const;

interface ContactListItemDialogProps {
  open: boolean;
  onClose: () => void;
  contactListId: number;
  item?: ContactListItem;
}

export function ContactListItemDialog(props: ContactListItemDialogProps) {
  const { open, onClose, contactListId, item } = props;
  const { t } = useTranslation('contactLists');
  const validationText = useValidationText();
  const save = useSaveContactListItem(contactListId);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<ItemFormValues, ContactListItemCreate>(contactListItemCreateSchema, {
    name: item?.name ?? '',
    number: item?.number ?? '',
    email: item?.email ?? '',
    contactListId,
  });
  const message = useCallback(
    (text: string | undefined) => {
      if (text === INVALID_NUMBER_MESSAGE) return t('validation.number');
      if (text === 'Already exists') return t('validation.duplicated');
      return validationText(text);
    },
    [t, validationText],
  );

  const onSubmit = handleSubmit((data) =>
    submitRecord({
      save: () =>
        item
          ? save.mutateAsync({
              id: item.id,
              data: { name: data.name, number: data.number, email: data.email },
            })
          : save.mutateAsync({ data }),
      saved: t('toasts.itemSaved'),
      onClose,
      setError,
      fields: FIELDS,
      handle: (error) => {
        if (!(error instanceof ApiError) || error.code !== 'ERR_DUPLICATED_CONTACT') return false;
        setError('number', { type: 'server', message: 'Already exists' });
        return true;
      },
    }),
  );

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={item ? t('itemDialog.editTitle') : t('itemDialog.addTitle')}
      onSubmit={onSubmit}
      submitLabel={item ? t('common:actions.save') : t('common:actions.add')}
      pending={isSubmitting}
      maxWidth="xs"
    >
      <TextField
        id="contact-list-item-name"
        label={t('fields.name')}
        autoComplete="off"
        autoFocus
        fullWidth
        error={Boolean(errors.name)}
        helperText={message(errors.name?.message)}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('name'))}
      />
      <TextField
        id="contact-list-item-number"
        label={t('fields.number')}
        autoComplete="off"
        fullWidth
        inputMode="tel"
        error={Boolean(errors.number)}
        helperText={message(errors.number?.message) ?? t('fields.numberHelp')}
        slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
        {...muiField(register('number'))}
      />
      <TextField
        id="contact-list-item-email"
        label={t('fields.email')}
        type="email"
        autoComplete="off"
        fullWidth
        error={Boolean(errors.email)}
        helperText={message(errors.email?.message)}
        {...muiField(register('email'))}
      />
    </FormDialog>
  );
}
