import { writeVcard } from '@atendi/shared';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { digitsOnly } from './NewContactDialog';

/** A contact card to share: a name and a number, sent as a vCard. */
export function ContactCardDialog({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (card: { name: string; vcard: string }) => void;
}) {
  const { t } = useTranslation('simulator');
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [errors, setErrors] = useState<{ name?: string; number?: string }>({});

  const submit = () => {
    const digits = digitsOnly(number);
    const next = {
      name: name.trim() ? undefined : t('contactCard.nameRequired'),
      number: /^\d{8,15}$/.test(digits) ? undefined : t('contactCard.invalidNumber'),
    };
    setErrors(next);
    if (next.name || next.number) return;
    onSend({ name: name.trim(), vcard: writeVcard({ name, phones: [{ waid: digits }] }) });
    setName('');
    setNumber('');
  };

  return (
    <FormDialog
      maxWidth="xs"
      fullScreenOnPhone={false}
      open={open}
      title={t('contactCard.title')}
      submitLabel={t('chat.send')}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        id="simulator-card-name"
        label={t('contactCard.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoFocus
        error={Boolean(errors.name)}
        helperText={errors.name}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        id="simulator-card-number"
        label={t('contactCard.number')}
        value={number}
        onChange={(event) => setNumber(event.target.value)}
        error={Boolean(errors.number)}
        helperText={errors.number}
        slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 25 } }}
      />
    </FormDialog>
  );
}
