import {
  companiesContract,
  invoicesContract as invoices,
  type SubscriptionCharge,
  type SubscriptionCreate,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { settingsKeys } from '../settings/api';

export const invoicesKeys = {
  all: ['invoices'] as const,
  list: (searchParam: string, companies: 'own' | 'all') =>
    ['invoices', 'list', searchParam, companies] as const,
};

/** The company's invoices, page by page; every company's for the super user (`'all'`). */
export function useInvoices(searchParam: string, companies: 'own' | 'all' = 'own') {
  return useInfiniteQuery({
    queryKey: invoicesKeys.list(searchParam, companies),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(invoices.page, {
        query: { searchParam, pageNumber: pageParam, companies },
        signal,
      }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

/** The oldest open invoice, which '/subscription' pays. */
export async function oldestOpenInvoice() {
  const page = await api.call(invoices.page, { query: { pageNumber: 1 } });
  return page.invoices.filter((invoice) => invoice.status !== 'paid').at(-1);
}

/**
 * The company's own record: the checkout starts from the billing name and address it keeps.
 * Without it the checkout starts empty, so a failure says nothing.
 */
export function useOwnCompany(companyId: number) {
  return useQuery({
    queryKey: settingsKeys.company(companyId),
    meta: { silent: true },
    queryFn: ({ signal }) => api.call(companiesContract.get, { params: { id: companyId }, signal }),
  });
}

/** POST /subscription: the invoice's Pix charge; the company keeps the name and address sent. */
export function useSubscribe(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation<SubscriptionCharge, Error, SubscriptionCreate>({
    // The checkout tells its own failures (it stays on the review to try again).
    meta: { silent: true },
    mutationFn: (body) => api.call(invoices.subscribe, { body }),
    // Kept even when the provider refuses: the next checkout starts from them either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.company(companyId) }),
  });
}
