import { companiesContract, plansContract, type Signup } from '@atendi/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

export const publicPlansKey = ['plans', 'public'] as const;

/** Plans offered at sign-up (public route). */
export function usePublicPlans() {
  return useQuery({
    queryKey: publicPlansKey,
    // the sign-up form says it under the plan field
    meta: { silent: true },
    queryFn: ({ signal }) => api.call(plansContract.listPublic, { signal, anonymous: true }),
  });
}

/** What POST /companies/cadastro receives: the form plus the trial terms the product sends. */
export type SignupPayload = Signup & {
  recurrence: 'MENSAL';
  dueDate: string;
  status: 't';
  campaignsEnabled: true;
};

export function useSignup() {
  return useMutation({
    // the page shows field errors and duplicate messages itself
    meta: { silent: true },
    mutationFn: (payload: SignupPayload) =>
      api.call(companiesContract.signup, { body: payload, anonymous: true }),
  });
}
