import type { Campaign } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { campaignsKeys, patchCampaignCaches } from './campaigns.cache';

/** `company-{id}-campaign`: campaigns created, changed (status, progress) or deleted. */
export function useCampaignsRealtime(onUpdate?: (record: Campaign) => void) {
  const queryClient = useQueryClient();
  useCompanyEvent('campaign', (event) => {
    if (event.action === 'delete') {
      patchCampaignCaches(queryClient, { removedId: event.id });
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.one(event.id) });
      return;
    }
    patchCampaignCaches(queryClient, { record: event.record });
    onUpdate?.(event.record);
  });
}
