import {
  invoicesContract as invoices,
  type SubscriptionCharge,
  type SubscriptionCreate,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from '../../app/api';

export const invoicesKeys = {
  all: ['invoices'] as const,
  list: (searchParam: string) => ['invoices', 'list', searchParam] as const,
};

export function useInvoices(searchParam: string) {
  return useInfiniteQuery({
    queryKey: invoicesKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(invoices.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The oldest open invoice, which '/subscription' pays. */
export async function oldestOpenInvoice() {
  const page = await api.call(invoices.list, { query: { pageNumber: 1 } });
  return page.invoices.filter((invoice) => invoice.status !== 'paid').at(-1);
}

/** POST /subscription: the invoice's Pix charge. */
export function useSubscribe() {
  return useMutation<SubscriptionCharge, Error, SubscriptionCreate>({
    // The checkout tells its own failures (it stays on the review to try again).
    meta: { silent: true },
    mutationFn: (body) => api.call(invoices.subscribe, { body }),
  });
}
