import { MSG, type Plan, signupSchema, TRIAL_DAYS } from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../../app/api';
import { errorMessage, toastError } from '../../../app/errors';
import { formatMoney } from '../../../app/format';
import { applyServerFieldErrors, muiField, useValidationText } from '../../../app/forms';
import { toast } from '../../../app/toast';
import { usePublicPlans, useSignup } from '../api';
import { AuthCard } from '../components/AuthCard';
import { maskPhone } from '../phoneMask';

type SignupForm = z.input<typeof signupSchema>;
type SignupValues = z.output<typeof signupSchema>;

const FORM_FIELDS = ['name', 'email', 'phone', 'password', 'planId'] as const;
const DAY_MS = 86_400_000;

// an empty plan select reads as 0 or NaN: say 'Required', like the other fields
const resolver = zodResolver(signupSchema, {
  error: (issue) => (issue.path?.[0] === 'planId' ? MSG.required : undefined),
});

/** The sign-up link's ?companyId= (who referred the visitor), when it is a company id at all. */
function referringCompany(value: string | null): number | undefined {
  if (!value || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : undefined;
}

/**
 * Public sign-up of a new company. A companyId in the address (spec core 2) goes along with the
 * sign-up as its referrer; the server still creates a company of the visitor's own.
 */
export function SignupPage() {
  const { t } = useTranslation('auth');
  const validationText = useValidationText();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const companyId = referringCompany(searchParams.get('companyId'));
  const plans = usePublicPlans();
  const signup = useSignup();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignupForm, unknown, SignupValues>({
    resolver,
    defaultValues: { name: '', email: '', phone: '', password: '', planId: '' },
  });

  const planLabel = (plan: Plan) =>
    t('signup.planOption', {
      name: plan.name,
      users: plan.users,
      connections: plan.connections,
      queues: plan.queues,
      value: formatMoney(plan.value),
    });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signup.mutateAsync({
        ...values,
        recurrence: 'MENSAL',
        dueDate: new Date(Date.now() + TRIAL_DAYS * DAY_MS).toISOString(),
        status: 't',
        campaignsEnabled: true,
        ...(companyId ? { companyId } : {}),
      });
      toast.success(t('signup.success'));
      navigate('/login', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_EMAIL') {
        setError('email', { type: 'server', message: errorMessage(error) });
        toast.error(errorMessage(error));
      } else if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_COMPANY') {
        setError('name', { type: 'server', message: errorMessage(error) });
        toast.error(errorMessage(error));
      } else if (!applyServerFieldErrors(error, setError, FORM_FIELDS)) {
        toastError(error);
      }
    }
  });

  return (
    <AuthCard title={t('signup.title')}>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2 }}>
        <TextField
          id="signup-name"
          label={t('fields.companyName')}
          autoComplete="organization"
          autoFocus
          fullWidth
          error={Boolean(errors.name)}
          helperText={validationText(errors.name?.message)}
          slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
          {...muiField(register('name'))}
        />
        <TextField
          id="signup-email"
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          fullWidth
          error={Boolean(errors.email)}
          helperText={validationText(errors.email?.message)}
          slotProps={{ htmlInput: { 'aria-required': true } }}
          {...muiField(register('email'))}
        />
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <TextField
              id="signup-phone"
              label={t('fields.phone')}
              type="tel"
              autoComplete="tel-national"
              placeholder="(99) 99999-9999"
              fullWidth
              name={field.name}
              value={(field.value as string) ?? ''}
              onChange={(event) => field.onChange(maskPhone(event.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={Boolean(errors.phone)}
              helperText={validationText(errors.phone?.message)}
              slotProps={{ htmlInput: { 'aria-required': true, inputMode: 'tel' } }}
            />
          )}
        />
        <TextField
          id="signup-password"
          label={t('fields.password')}
          type="password"
          autoComplete="new-password"
          fullWidth
          error={Boolean(errors.password)}
          helperText={validationText(errors.password?.message)}
          slotProps={{ htmlInput: { 'aria-required': true, maxLength: 50 } }}
          {...muiField(register('password'))}
        />
        <Controller
          control={control}
          name="planId"
          render={({ field }) => (
            <TextField
              id="signup-plan"
              select
              label={t('fields.plan')}
              fullWidth
              name={field.name}
              value={(field.value as number | string | undefined) ?? ''}
              onChange={(event) => field.onChange(event.target.value)}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={Boolean(errors.planId) || plans.isError}
              helperText={
                validationText(errors.planId?.message) ??
                (plans.isError ? t('signup.plansFailed') : undefined)
              }
              slotProps={{ htmlInput: { 'aria-required': true } }}
            >
              {plans.isPending && (
                <MenuItem disabled value="">
                  {t('signup.plansLoading')}
                </MenuItem>
              )}
              {(plans.data ?? []).map((plan) => (
                <MenuItem key={plan.id} value={plan.id} sx={{ whiteSpace: 'normal' }}>
                  {planLabel(plan)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={signup.isPending}
          startIcon={
            signup.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : null
          }
        >
          {t('signup.submit')}
        </Button>
        <Typography variant="body2" sx={{ textAlign: 'center' }}>
          {t('signup.haveAccount')}{' '}
          <Link component={RouterLink} to="/login">
            {t('signup.loginLink')}
          </Link>
        </Typography>
      </Box>
    </AuthCard>
  );
}
