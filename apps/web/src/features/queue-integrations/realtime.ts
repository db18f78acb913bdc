import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { integrationsKeys } from './api';

/** Another admin's changes reach the list as they happen. */
export function useQueueIntegrationsRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('queueIntegration', () => {
    void queryClient.invalidateQueries({ queryKey: integrationsKeys.all });
  });
}
