import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { useSaveSecretSetting } from '../api';
import { SettingLabel } from './SettingLabel';

/**
 * The super user's payment section: the Asaas API key the Pix checkout uses. The page only ever
 * has the key's masked hint; the field starts empty and a key typed in is sent once, then cleared.
 */
export function PaymentSettings({ hint }: { hint: string }) {
  const { t } = useTranslation('settings');
  const save = useSaveSecretSetting();
  const [typed, setTyped] = useState('');

  const send = (value: string, done: string) =>
    save.mutate(
      { key: 'asaas', value },
      {
        onSuccess: () => {
          setTyped('');
          toast.success(done);
        },
        onError: (error) => toastError(error),
      },
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) send(typed.trim(), t('toasts.updated'));
  };

  return (
    <Box
      component="form"
      aria-labelledby="settings-payments-title"
      onSubmit={submit}
      noValidate
      autoComplete="off"
      sx={{ mt: 4, pt: 3, borderTop: 1, borderColor: 'divider', display: 'grid', gap: 1.5 }}
    >
      <Typography id="settings-payments-title" variant="subtitle1" component="h2">
        {t('payments.title')}
      </Typography>
      <Box sx={{ maxWidth: { md: 'calc(50% - 12px)' } }}>
        <SettingLabel id="setting-asaas-label" htmlFor="setting-asaas">
          {t('payments.asaas.label')}
        </SettingLabel>
        <TextField
          id="setting-asaas"
          type="password"
          fullWidth
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder={hint || undefined}
          helperText={t('payments.asaas.help')}
          slotProps={{ htmlInput: { autoComplete: 'new-password', spellCheck: false } }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary" role="status">
        {hint ? t('payments.asaas.saved', { hint }) : t('payments.asaas.none')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" disabled={!typed.trim() || save.isPending}>
          {t('payments.asaas.save')}
        </Button>
        {hint && (
          <Button
            color="error"
            disabled={save.isPending}
            onClick={() => send('', t('payments.asaas.removed'))}
          >
            {t('payments.asaas.remove')}
          </Button>
        )}
      </Box>
    </Box>
  );
}
