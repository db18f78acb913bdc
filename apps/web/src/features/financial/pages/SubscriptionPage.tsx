import type { Invoice } from '@atendi/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { PageHeader } from '../../../app/components/PageHeader';
import { toastError } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { oldestOpenInvoice } from '../api';
import { CheckoutDialog } from '../components/CheckoutDialog';

const DAY_MS = 86_400_000;

/** Whole days from now to the trial's end, never below zero. */
export function trialDaysLeft(trialExpiration: string | null, now = new Date()): number {
  if (!trialExpiration) return 0;
  const end = new Date(trialExpiration).getTime();
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS));
}

/** Assinatura (spec administration 2): trial days left, billing e-mail, 'Assine Agora!'. */
export function SubscriptionPage() {
  const { t } = useTranslation('financial');
  const { company } = useSessionUser();
  const [paying, setPaying] = useState<Invoice>();
  const [looking, setLooking] = useState(false);

  const subscribe = async () => {
    setLooking(true);
    try {
      const invoice = await oldestOpenInvoice();
      if (invoice) setPaying(invoice);
      else toast.info(t('subscription.nothingToPay'));
    } catch (failure) {
      toastError(failure);
    } finally {
      setLooking(false);
    }
  };

  return (
    <>
      <PageHeader title={t('subscription.title')} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 480 }}>
        <Box sx={{ display: 'grid', gap: 2 }}>
          <TextField
            label={t('subscription.trialDays')}
            value={t('subscription.days', { count: trialDaysLeft(company.trialExpiration) })}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <TextField
            label={t('subscription.billingEmail')}
            value={company.email ?? ''}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <Button variant="contained" onClick={() => void subscribe()} disabled={looking}>
            {t('subscription.subscribe')}
          </Button>
        </Box>
      </Paper>
      {paying && (
        <CheckoutDialog
          key={paying.id}
          open
          invoice={paying}
          onClose={() => setPaying(undefined)}
        />
      )}
    </>
  );
}
