import type { Company, Invoice, PaymentEvent, SubscriptionCharge } from '@atendi/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../../app/auth';
import { toastError } from '../../../app/errors';
import { formatDate, formatMoney } from '../../../app/format';
import { toast } from '../../../app/toast';
import { useOwnCompany, useSubscribe } from '../api';
import { usePaymentEvents } from '../realtime';
import { PixView } from './PixView';

/** After the payment's toast, the app goes to / (spec administration 4, 9). */
export const REDIRECT_AFTER_PAYMENT_MS = 4_000;
export const COUNTRIES = ['BR', 'usa'] as const;

export interface CheckoutValues {
  firstName: string;
  cpfCnpj: string;
  zipcode: string;
  address2: string;
  city: string;
  state: string;
  country: string;
}

const DATA_FIELDS = [
  'firstName',
  'cpfCnpj',
  'zipcode',
  'address2',
  'city',
  'state',
  'country',
] as const;

const EMPTY: CheckoutValues = {
  firstName: '',
  cpfCnpj: '',
  zipcode: '',
  address2: '',
  city: '',
  state: '',
  country: 'BR',
};

/** What the company keeps of its last checkout (or the super user typed in its form). */
export const savedBillingValues = (company: Company): CheckoutValues => ({
  ...EMPTY,
  firstName: company.billingName ?? '',
  zipcode: company.addressZipCode ?? '',
  address2: company.addressStreet ?? '',
  city: company.addressCity ?? '',
  state: company.addressState ?? '',
});

interface CheckoutDialogProps {
  open: boolean;
  invoice: Invoice;
  onClose: () => void;
}

/**
 * The three-step checkout (Dados, Personalizar, Revisar), then the Pix view. Dados starts from
 * the billing name and address the company kept at its last checkout. The company's `payment`
 * event for this invoice shows the new due date and goes to / after 4 s.
 */
export function CheckoutDialog({ open, invoice, onClose }: CheckoutDialogProps) {
  const { t } = useTranslation('financial');
  const user = useSessionUser();
  const plan = user.company.plan;
  const navigate = useNavigate();
  const subscribe = useSubscribe(user.companyId);
  const company = useOwnCompany(user.companyId);
  const saved = useMemo(
    () => (company.data ? savedBillingValues(company.data) : undefined),
    [company.data],
  );
  const titleId = useId();
  const [step, setStep] = useState(0);
  const [charge, setCharge] = useState<SubscriptionCharge>();
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);

  usePaymentEvents((event: PaymentEvent) => {
    if (!open || event.invoiceId !== invoice.id) return;
    toast.success(t('checkout.paid', { date: formatDate(event.company.dueDate) }));
    clearTimeout(redirect.current);
    redirect.current = setTimeout(() => navigate('/'), REDIRECT_AFTER_PAYMENT_MS);
  });

  const {
    register,
    control,
    trigger,
    getValues,
    watch,
    formState: { errors },
  } = useForm<CheckoutValues>({
    mode: 'onTouched',
    defaultValues: EMPTY,
    // The company's saved details fill the form when they arrive, never over what was typed.
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const country = watch('country');

  const next = async () => {
    if (step === 0 && !(await trigger([...DATA_FIELDS]))) return;
    setStep((current) => current + 1);
  };

  const pay = async () => {
    const values = getValues();
    try {
      const answer = await subscribe.mutateAsync({
        invoiceId: invoice.id,
        firstName: values.firstName.trim(),
        address2: values.address2,
        city: values.city,
        state: values.state,
        zipcode: values.zipcode,
        country: values.country,
        ...(values.cpfCnpj.trim() ? { cpfCnpj: values.cpfCnpj.trim() } : {}),
        plan: JSON.stringify({ title: plan.name, price: plan.value }),
        price: invoice.value,
        users: plan.users,
        connections: plan.connections,
      });
      setCharge(answer);
      toast.success(t('checkout.subscribed'));
    } catch (failure) {
      toastError(failure);
    }
  };

  const error = (name: keyof CheckoutValues) =>
    errors[name] ? { error: true, helperText: errors[name]?.message } : {};
  const steps = [t('checkout.steps.data'), t('checkout.steps.plan'), t('checkout.steps.review')];
  const values = getValues();

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('checkout.title')}</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        {charge ? (
          <PixView charge={charge} />
        ) : (
          <>
            <Stepper activeStep={step} alternativeLabel>
              {steps.map((label) => (
                <Step key={label}>
                  <StepLabel>{label}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === 0 && (
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
                <TextField
                  label={t('checkout.fields.firstName')}
                  required
                  sx={{ gridColumn: { sm: 'span 2' } }}
                  {...register('firstName', {
                    validate: (v) => v.trim() !== '' || t('validation.firstName'),
                  })}
                  {...error('firstName')}
                />
                <Controller
                  control={control}
                  name="country"
                  rules={{ required: t('validation.country') }}
                  render={({ field }) => (
                    <TextField
                      select
                      label={t('checkout.fields.country')}
                      required
                      {...field}
                      {...error('country')}
                    >
                      {COUNTRIES.map((code) => (
                        <MenuItem key={code} value={code}>
                          {code}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
                <TextField
                  label={t('checkout.fields.cpfCnpj')}
                  required={country === 'BR'}
                  {...register('cpfCnpj', {
                    validate: (v, all) =>
                      all.country !== 'BR' ||
                      /^(\d{11}|\d{14})$/.test(v.replace(/\D/g, '')) ||
                      t('validation.cpfCnpj'),
                  })}
                  {...error('cpfCnpj')}
                />
                <TextField
                  label={t('checkout.fields.zipcode')}
                  required
                  {...register('zipcode', {
                    validate: (v) => v.trim() !== '' || t('validation.zipcode'),
                  })}
                  {...error('zipcode')}
                />
                <TextField
                  label={t('checkout.fields.address')}
                  required
                  {...register('address2', {
                    validate: (v) => v.trim() !== '' || t('validation.address'),
                  })}
                  {...error('address2')}
                />
                <TextField
                  label={t('checkout.fields.city')}
                  required
                  {...register('city', {
                    validate: (v) => v.trim() !== '' || t('validation.city'),
                  })}
                  {...error('city')}
                />
                <TextField label={t('checkout.fields.state')} {...register('state')} />
              </Box>
            )}
            {step === 1 && (
              <Card variant="outlined" sx={{ borderColor: 'primary.main', borderWidth: 2 }}>
                <CardActionArea aria-pressed="true">
                  <CardContent>
                    <Typography variant="h6">{plan.name}</Typography>
                    <Typography>{t('checkout.plan.users', { count: plan.users })}</Typography>
                    <Typography>
                      {t('checkout.plan.connections', { count: plan.connections })}
                    </Typography>
                    <Typography>{t('checkout.plan.queues', { count: plan.queues })}</Typography>
                    <Typography variant="h6" sx={{ mt: 1 }}>
                      {t('checkout.plan.monthly', { value: formatMoney(invoice.value) })}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            )}
            {step === 2 && (
              <Box sx={{ display: 'grid', gap: 1 }}>
                <Typography variant="subtitle1">{t('checkout.review.title')}</Typography>
                <Typography>{values.firstName}</Typography>
                <Typography>
                  {[values.address2, values.city, values.state, values.zipcode, values.country]
                    .filter(Boolean)
                    .join(', ')}
                </Typography>
                <Typography>
                  {t('checkout.review.invoice', {
                    detail: invoice.detail,
                    date: formatDate(invoice.dueDate),
                  })}
                </Typography>
                <Typography variant="h6">
                  {t('checkout.review.total', { value: formatMoney(invoice.value) })}
                </Typography>
              </Box>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('checkout.close')}</Button>
        {!charge && step > 0 && (
          <Button onClick={() => setStep((current) => current - 1)} disabled={subscribe.isPending}>
            {t('checkout.back')}
          </Button>
        )}
        {!charge && step < 2 && (
          <Button variant="contained" onClick={() => void next()}>
            {t('checkout.next')}
          </Button>
        )}
        {!charge && step === 2 && (
          <Button variant="contained" onClick={() => void pay()} disabled={subscribe.isPending}>
            {t('checkout.pay')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
