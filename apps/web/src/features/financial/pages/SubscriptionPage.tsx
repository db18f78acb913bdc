import type { Invoice } from '@atendi/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { companyTimeZone, dayInZone } from '../../../app/clock';
import { PageHeader } from '../../../app/components/PageHeader';
import { toastError } from '../../../app/errors';
import { formatDate } from '../../../app/format';
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

export type SubscriptionState =
  | { kind: 'trial'; daysLeft: number }
  | { kind: 'active' | 'expired'; dueDate: string }
  | { kind: 'undated' };

/**
 * Where the company's subscription stands: on trial while its trial has days left, else active
 * until its due date (today included, on the company's clock) or expired since it.
 */
export function subscriptionState(
  company: { trialExpiration: string | null; dueDate: string | null },
  zone: string,
  now = new Date(),
): SubscriptionState {
  const daysLeft = trialDaysLeft(company.trialExpiration, now);
  if (daysLeft > 0) return { kind: 'trial', daysLeft };
  const dueDay = company.dueDate?.slice(0, 10);
  if (!dueDay) return { kind: 'undated' };
  return { kind: dueDay >= dayInZone(now, zone) ? 'active' : 'expired', dueDate: dueDay };
}

/** The label and value of the subscription's state field. */
function useStateText(state: SubscriptionState): [label: string, value: string] {
  const { t } = useTranslation('financial');
  switch (state.kind) {
    case 'trial':
      return [t('subscription.trialDays'), t('subscription.days', { count: state.daysLeft })];
    case 'active':
      return [
        t('subscription.state'),
        t('subscription.activeUntil', { date: formatDate(state.dueDate) }),
      ];
    case 'expired':
      return [
        t('subscription.state'),
        t('subscription.expiredSince', { date: formatDate(state.dueDate) }),
      ];
    case 'undated':
      return [t('subscription.state'), t('subscription.undated')];
  }
}

/**
 * Assinatura (spec administration 2): the trial's days left (or, out of trial, active until or
 * expired since the due date), billing e-mail, 'Assine Agora!'.
 */
export function SubscriptionPage() {
  const { t } = useTranslation('financial');
  const user = useSessionUser();
  const { company } = user;
  const [stateLabel, stateValue] = useStateText(subscriptionState(company, companyTimeZone(user)));
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
            label={stateLabel}
            value={stateValue}
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
