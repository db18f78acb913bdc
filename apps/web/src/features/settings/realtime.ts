import { useQueryClient } from '@tanstack/react-query';
import { useSessionUser } from '../../app/auth';
import { useCompanyEvent } from '../../app/socket';
import { patchSetting, settingsKeys } from './api';

/** Another admin's changes: a setting (company-{id}-settings) and the company's hours. */
export function useSettingsRealtime() {
  const { companyId } = useSessionUser();
  const queryClient = useQueryClient();
  useCompanyEvent('settings', (event) => {
    if (event?.action === 'update' && event.setting) patchSetting(queryClient, event.setting);
  });
  useCompanyEvent('company', (event) => {
    if (event?.action === 'update' && event.company?.id === companyId) {
      queryClient.setQueryData(settingsKeys.company(companyId), event.company);
    }
  });
}
