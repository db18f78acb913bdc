import { type Company, companyEvent, type Setting } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchSetting, settingsKeys } from './api';

interface SettingEvent {
  action: 'update';
  setting?: Setting;
}

interface CompanyEvent {
  action: 'update';
  company?: Company;
}

/** Another admin's changes: a setting (company-{id}-settings) and the company's hours. */
export function useSettingsRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<SettingEvent>(companyEvent(companyId, 'settings'), (event) => {
    if (event?.action === 'update' && event.setting) patchSetting(queryClient, event.setting);
  });
  useSocketEvent<CompanyEvent>(companyEvent(companyId, 'company'), (event) => {
    if (event?.action === 'update' && event.company?.id === companyId) {
      queryClient.setQueryData(settingsKeys.company(companyId), event.company);
    }
  });
}
