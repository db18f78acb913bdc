import { type PlanCreate, plansContract as plans } from '@atendi/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

export const plansKeys = { all: ['plans', 'all'] as const };

/** Every plan, for the super user's list and the company form's choice. */
export function usePlans() {
  return useQuery({
    queryKey: plansKeys.all,
    queryFn: ({ signal }) => api.call(plans.listAll, { signal }),
  });
}

export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ id, data }: { id?: number; data: PlanCreate }) =>
      id === undefined
        ? api.call(plans.create, { body: data })
        : api.call(plans.update, { params: { id }, body: data }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: plansKeys.all }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: (id: number) => api.call(plans.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: plansKeys.all }),
  });
}
