import type { PaymentEvent } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { invoicesKeys } from './api';

/** `company-{id}-payment`: an invoice was paid (CONCLUIDA); the list reads its new state. */
export function usePaymentEvents(onPaid?: (event: PaymentEvent) => void) {
  const queryClient = useQueryClient();
  useCompanyEvent('payment', (event) => {
    if (event.action !== 'CONCLUIDA') return;
    void queryClient.invalidateQueries({ queryKey: invoicesKeys.all });
    onPaid?.(event);
  });
}
