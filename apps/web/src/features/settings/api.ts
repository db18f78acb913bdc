import {
  type Company,
  type CompanySchedule,
  companiesContract,
  type Setting,
  type SettingKey,
  settingsContract,
} from '@atendi/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { useAuth } from '../../app/auth';
import { setLiveQueryData } from '../../app/liveCache';

export const settingsKeys = {
  list: ['settings', 'list'] as const,
  company: (companyId: number) => ['companies', companyId] as const,
};

export function useSettings() {
  return useQuery({
    queryKey: settingsKeys.list,
    queryFn: ({ signal }) => api.call(settingsContract.list, { signal }),
  });
}

/** The value of one setting in a list, '' when the list lacks it. */
export const settingValue = (settings: readonly Setting[] | undefined, key: SettingKey) =>
  settings?.find((setting) => setting.key === key)?.value ?? '';

/** Puts one setting's value into the cached list (a save, a rollback, another admin's change). */
export function patchSetting(queryClient: QueryClient, setting: Setting): void {
  setLiveQueryData<Setting[]>(queryClient, settingsKeys.list, (list) => {
    if (!list) return list;
    const known = list.some((item) => item.key === setting.key);
    return known
      ? list.map((item) => (item.key === setting.key ? { ...item, value: setting.value } : item))
      : [...list, setting];
  });
}

/**
 * Saves one setting at once. The list shows the new value while it is saved; a refusal puts the
 * value back as it was before this change, and the page says why.
 */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  const { user, updateUser } = useAuth();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ key, value }: { key: SettingKey; value: string; previous: string }) =>
      api.call(settingsContract.update, { params: { key }, body: { value } }),
    onMutate: async ({ key, value }) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.list });
      patchSetting(queryClient, { key, value });
    },
    onSuccess: (saved) => {
      patchSetting(queryClient, saved);
      // the session's copy of the settings (the company's clock) follows at once
      if (user?.company) {
        const settings = user.company.settings.filter((item) => item.key !== saved.key);
        updateUser({ company: { ...user.company, settings: [...settings, saved] } });
      }
    },
    onError: (_error, { key, previous }) => patchSetting(queryClient, { key, value: previous }),
  });
}

/**
 * Saves a secret setting (the payment key). Nothing is put in the list while it is saved: the
 * list only ever holds the masked hint the server answers, never the key typed.
 */
export function useSaveSecretSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) =>
      api.call(settingsContract.update, { params: { key }, body: { value } }),
    onSuccess: (saved) => patchSetting(queryClient, saved),
  });
}

/** The company's own record, for its opening hours (an admin reads its own company). */
export function useCompany(companyId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: settingsKeys.company(companyId),
    enabled,
    queryFn: ({ signal }) => api.call(companiesContract.get, { params: { id: companyId }, signal }),
  });
}

export function useSaveCompanySchedules(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedules: CompanySchedule[]) =>
      api.call(companiesContract.updateSchedules, {
        params: { id: companyId },
        body: { schedules },
      }),
    onSuccess: (company: Company) =>
      queryClient.setQueryData(settingsKeys.company(companyId), company),
  });
}
