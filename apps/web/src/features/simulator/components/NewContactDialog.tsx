import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import type { SimulatorPhone } from '../api';

export const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** A phone that will talk to the company: a number of 10 to 15 digits and a name. */
export function NewContactDialog({
  open,
  onClose,
  onCreate,
}: {
  open: boolean;
  onClose: () => void;
  onCreate: (phone: SimulatorPhone) => void;
}) {
  const { t } = useTranslation('simulator');
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ number?: string; name?: string }>({});

  const submit = () => {
    const phone = digitsOnly(number);
    const next = {
      number: /^\d{10,15}$/.test(phone) ? undefined : t('newContact.invalidNumber'),
      name: name.trim() ? undefined : t('newContact.nameRequired'),
    };
    setErrors(next);
    if (next.number || next.name) return;
    onCreate({ phone, name: name.trim() });
    setNumber('');
    setName('');
  };

  return (
    <FormDialog
      maxWidth="xs"
      fullScreenOnPhone={false}
      open={open}
      title={t('newContact.title')}
      submitLabel={t('newContact.create')}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        id="simulator-contact-number"
        label={t('newContact.number')}
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        autoFocus
        error={Boolean(errors.number)}
        helperText={errors.number ?? t('newContact.numberHelp')}
        slotProps={{
          htmlInput: {
            inputMode: 'tel',
            autoComplete: 'off',
            maxLength: 25,
            'aria-required': true,
          },
        }}
      />
      <TextField
        id="simulator-contact-name"
        label={t('newContact.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={Boolean(errors.name)}
        helperText={errors.name}
        slotProps={{ htmlInput: { maxLength: 50, autoComplete: 'off', 'aria-required': true } }}
      />
    </FormDialog>
  );
}
