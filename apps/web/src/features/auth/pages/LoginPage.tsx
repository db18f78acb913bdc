import { type Login, loginSchema } from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ApiError } from '../../../app/api';
import { useAuth } from '../../../app/auth';
import { toastError } from '../../../app/errors';
import { formatDate } from '../../../app/format';
import { muiField, useValidationText } from '../../../app/forms';
import { forgetEndedElsewhere, wasEndedElsewhere } from '../../../app/session';
import { toast } from '../../../app/toast';
import { AuthCard } from '../components/AuthCard';

export function LoginPage() {
  const { t } = useTranslation('auth');
  // Said on the sign-in page an ended session went (and reloaded) to, until the next sign-in.
  const [endedElsewhere] = useState(wasEndedElsewhere);
  const validationText = useValidationText();
  const { login } = useAuth();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Login>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setSubmitting(true);
    try {
      const session = await login(credentials);
      forgetEndedElsewhere();
      toast.success(t('login.success'));
      if (session.dueDateWarning && session.daysToDueDate !== null) {
        toast.warning(t('login.dueDateWarning', { days: session.daysToDueDate }));
      }
      navigate('/tickets', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        toast.error(t('login.subscriptionExpired', { date: formatDate(error.body?.dueDate) }));
      } else {
        toastError(error);
      }
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthCard title={t('login.title')}>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2 }}>
        {endedElsewhere && (
          <Alert severity="warning">{t('session.loggedInElsewhere', { ns: 'layout' })}</Alert>
        )}
        <TextField
          id="login-email"
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          autoFocus
          fullWidth
          error={Boolean(errors.email)}
          helperText={validationText(errors.email?.message)}
          slotProps={{ htmlInput: { 'aria-required': true } }}
          {...muiField(register('email'))}
        />
        <TextField
          id="login-password"
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          fullWidth
          error={Boolean(errors.password)}
          helperText={validationText(errors.password?.message)}
          slotProps={{ htmlInput: { 'aria-required': true } }}
          {...muiField(register('password'))}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={submitting}
          startIcon={submitting ? <CircularProgress size={18} color="inherit" aria-hidden /> : null}
        >
          {t('login.submit')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          <Link component={RouterLink} to="/forgetpsw">
            {t('login.forgotLink')}
          </Link>
        </Typography>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          {t('login.noAccount')}{' '}
          <Link component={RouterLink} to="/signup">
            {t('login.signupLink')}
          </Link>
        </Typography>
      </Box>
    </AuthCard>
  );
}
