import {
  type Company,
  type CompanyCreate,
  type CompanyUpdate,
  companiesContract as companies,
} from '@atendi/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

export const companiesKeys = {
  lists: ['companies', 'list'] as const,
  list: (searchParam: string) => ['companies', 'list', searchParam] as const,
};

/** The super user's companies, a page at a time, searched by name or e-mail. */
export function useCompanies(searchParam: string) {
  return useInfiniteQuery({
    queryKey: companiesKeys.list(searchParam),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.call(companies.list, { query: { searchParam, pageNumber: pageParam }, signal }),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: { id?: number; data: CompanyCreate | CompanyUpdate }) =>
      id === undefined
        ? api.call(companies.create, { body: data as CompanyCreate })
        : api.call(companies.update, { params: { id }, body: data }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: companiesKeys.lists }),
  });
}

/** '+ Vencimento': the company's due date moved on by its recurrence. */
export function useExtendDueDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ company, dueDate }: { company: Company; dueDate: string }) =>
      api.call(companies.update, { params: { id: company.id }, body: { dueDate } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: companiesKeys.lists }),
  });
}

export function useDeleteCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: number) => api.call(companies.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: companiesKeys.lists }),
  });
}
