import {
  type Contact,
  type ContactCreate,
  contactCreateSchema,
  INVALID_NUMBER_MESSAGE,
} from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../app/api';
import { FormDialog } from '../../../app/components/FormDialog';
import { errorMessage } from '../../../app/errors';
import { muiField, submitRecord, useRecordForm, useValidationText } from '../../../app/forms';
import { useSaveContact } from '../api';

export interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

const FORM_FIELDS = ['name', 'number', 'email', 'extraInfo'] as const;

// A group's number is its id on the network: shown, not validated or changed.
const groupSchema = contactCreateSchema.extend({ number: z.string() });

interface ContactDialogProps {
  open: boolean;
  onClose: () => void;
  /** The contact being edited; none to add one. */
  contact?: Contact;
}

export function ContactDialog({ open, onClose, contact }: ContactDialogProps) {
  const { t } = useTranslation('contacts');
  const validationText = useValidationText();
  const editing = contact !== undefined;
  const isGroup = contact?.isGroup ?? false;
  const save = useSaveContact();

  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useRecordForm<ContactFormValues, ContactCreate>(isGroup ? groupSchema : contactCreateSchema, {
    name: contact?.name ?? '',
    number: contact?.number ?? '',
    email: contact?.email ?? '',
    extraInfo: (contact?.extraInfo ?? []).map(({ name, value }) => ({ name, value })),
  });
  const extraInfo = useFieldArray({ control, name: 'extraInfo' });

  const message = useCallback(
    (text: string | undefined) =>
      text === INVALID_NUMBER_MESSAGE ? t('validation.invalidNumber') : validationText(text),
    [t, validationText],
  );

  const onSubmit = handleSubmit(async (values) => {
    const data: ContactCreate = { ...values, email: values.email ?? '' };
    await submitRecord({
      save: () => save.mutateAsync(editing ? { id: contact.id, data } : { data }),
      saved: t('toasts.saved'),
      onClose,
      setError,
      fields: FORM_FIELDS,
      handle: (error) => {
        if (!(error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT')) return false;
        setError('number', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
        return true;
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
      <Typography variant="subtitle2" component="h2" color="text.secondary">
        {t('dialog.contactData')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
        <TextField
          id="contact-name"
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
          id="contact-number"
          label={t('fields.number')}
          placeholder="5511999999999"
          autoComplete="off"
          fullWidth
          disabled={isGroup}
          error={Boolean(errors.number)}
          helperText={message(errors.number?.message) ?? t('fields.numberHelp')}
          slotProps={{ htmlInput: { 'aria-required': true, inputMode: 'tel', maxLength: 80 } }}
          {...muiField(register('number'))}
        />
        <TextField
          id="contact-email"
          label={t('fields.email')}
          type="email"
          autoComplete="off"
          fullWidth
          sx={{ gridColumn: { sm: '1 / -1' } }}
          error={Boolean(errors.email)}
          helperText={message(errors.email?.message)}
          {...muiField(register('email'))}
        />
      </Box>

      <Typography variant="subtitle2" component="h2" color="text.secondary" sx={{ mt: 1 }}>
        {t('dialog.extraInfo')}
      </Typography>
      {extraInfo.fields.map((field, index) => {
        const fieldErrors = errors.extraInfo?.[index];
        return (
          <Box
            key={field.id}
            role="group"
            aria-label={t('fields.extraInfoRow', { index: index + 1 })}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
          >
            <TextField
              id={`contact-extra-name-${index}`}
              label={t('fields.extraName')}
              size="small"
              sx={{ flex: 1, minWidth: 0 }}
              error={Boolean(fieldErrors?.name)}
              helperText={message(fieldErrors?.name?.message)}
              slotProps={{ htmlInput: { maxLength: 100 } }}
              {...muiField(register(`extraInfo.${index}.name`))}
            />
            <TextField
              id={`contact-extra-value-${index}`}
              label={t('fields.extraValue')}
              size="small"
              sx={{ flex: 1, minWidth: 0 }}
              error={Boolean(fieldErrors?.value)}
              helperText={message(fieldErrors?.value?.message)}
              slotProps={{ htmlInput: { maxLength: 1000 } }}
              {...muiField(register(`extraInfo.${index}.value`))}
            />
            <IconButton
              aria-label={t('fields.removeExtra', { index: index + 1 })}
              onClick={() => extraInfo.remove(index)}
              sx={{ mt: 0.25 }}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Box>
        );
      })}
      <Box>
        <Button
          startIcon={<AddIcon />}
          onClick={() => extraInfo.append({ name: '', value: '' })}
          disabled={extraInfo.fields.length >= 50}
        >
          {t('fields.addExtra')}
        </Button>
      </Box>
    </FormDialog>
  );
}
