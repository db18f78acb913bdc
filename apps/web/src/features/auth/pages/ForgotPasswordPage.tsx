import {
  emailField,
  passwordResetContract,
  resetCodeField,
  strongPasswordField,
} from '@atendi/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { api } from '../../../app/api';
import { toastError } from '../../../app/errors';
import { muiField, useRecordForm, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { AuthCard } from '../components/AuthCard';

const MISMATCH = 'As senhas não correspondem';

const emailSchema = z.object({ email: emailField });
const resetSchema = z
  .object({
    token: resetCodeField,
    newPassword: strongPasswordField,
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: MISMATCH,
  });

interface ResetValues {
  token: string;
  newPassword: string;
  confirmPassword: string;
}

function Submit({ busy, label }: { busy: boolean; label: string }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      disabled={busy}
      startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : null}
    >
      {label}
    </Button>
  );
}

/**
 * /forgetpsw: the e-mail first, which gets a one-time code by mail; then the code and the new
 * password twice. The code and password travel in the request body, never in a URL.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const validationText = useValidationText();
  const navigate = useNavigate();
  const [email, setEmail] = useState<string | null>(null);
  const emailForm = useRecordForm<{ email: string }>(emailSchema, { email: '' });
  const resetForm = useRecordForm<ResetValues>(resetSchema, {
    token: '',
    newPassword: '',
    confirmPassword: '',
  });

  const sendCode = emailForm.handleSubmit(async ({ email: address }) => {
    try {
      await api.call(passwordResetContract.request, { body: { email: address } });
      toast.success(t('forgot.sent'));
      setEmail(address);
    } catch (error) {
      toastError(error);
    }
  });

  const reset = resetForm.handleSubmit(async ({ token, newPassword }) => {
    if (!email) return;
    try {
      await api.call(passwordResetContract.reset, { body: { email, token, newPassword } });
      toast.success(t('forgot.done'));
      navigate('/login', { replace: true });
    } catch (error) {
      toastError(error);
    }
  });

  const resetErrors = resetForm.formState.errors;
  const text = (message: string | undefined) =>
    message === 'Invalid code' ? t('forgot.invalidCode') : validationText(message);

  return (
    <AuthCard title={t('forgot.title')}>
      {email === null ? (
        <Box component="form" noValidate onSubmit={sendCode} sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {t('forgot.emailHelp')}
          </Typography>
          <TextField
            id="forgot-email"
            label={t('fields.email')}
            type="email"
            autoComplete="username"
            autoFocus
            fullWidth
            error={Boolean(emailForm.formState.errors.email)}
            helperText={text(emailForm.formState.errors.email?.message)}
            slotProps={{ htmlInput: { 'aria-required': true } }}
            {...muiField(emailForm.register('email'))}
          />
          <Submit busy={emailForm.formState.isSubmitting} label={t('forgot.send')} />
        </Box>
      ) : (
        <Box component="form" noValidate onSubmit={reset} sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="body2" color="text.secondary" role="status">
            {t('forgot.codeHelp', { email })}
          </Typography>
          <TextField
            id="forgot-token"
            label={t('forgot.code')}
            autoComplete="one-time-code"
            autoFocus
            fullWidth
            error={Boolean(resetErrors.token)}
            helperText={text(resetErrors.token?.message)}
            slotProps={{ htmlInput: { 'aria-required': true, inputMode: 'numeric', maxLength: 6 } }}
            {...muiField(resetForm.register('token'))}
          />
          <TextField
            id="forgot-new-password"
            label={t('forgot.newPassword')}
            type="password"
            autoComplete="new-password"
            fullWidth
            error={Boolean(resetErrors.newPassword)}
            helperText={text(resetErrors.newPassword?.message)}
            slotProps={{ htmlInput: { 'aria-required': true } }}
            {...muiField(resetForm.register('newPassword'))}
          />
          <TextField
            id="forgot-confirm-password"
            label={t('forgot.confirmPassword')}
            type="password"
            autoComplete="new-password"
            fullWidth
            error={Boolean(resetErrors.confirmPassword)}
            helperText={text(resetErrors.confirmPassword?.message)}
            slotProps={{ htmlInput: { 'aria-required': true } }}
            {...muiField(resetForm.register('confirmPassword'))}
          />
          <Submit busy={resetForm.formState.isSubmitting} label={t('forgot.reset')} />
          <Button variant="text" onClick={() => setEmail(null)}>
            {t('forgot.again')}
          </Button>
        </Box>
      )}
      <Typography variant="body2" sx={{ textAlign: 'center', mt: 2 }}>
        <Link component={RouterLink} to="/login">
          {t('forgot.back')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
