import { useQueryClient } from '@tanstack/react-query';
import { useCompanyEvent } from '../../app/socket';
import { patchUserCaches } from './users.cache';

/** Users lists follow the company's changes live, wherever they were made. */
export function useUsersRealtime() {
  const queryClient = useQueryClient();
  useCompanyEvent('user', (event) => {
    if (event.action === 'delete') {
      if (event.userId !== undefined)
        patchUserCaches(queryClient, { removedId: Number(event.userId) });
      return;
    }
    if (event.action === 'presence') {
      if (event.userId !== undefined && typeof event.online === 'boolean') {
        patchUserCaches(queryClient, { user: { id: Number(event.userId), online: event.online } });
      }
      return;
    }
    if (event.user && typeof event.user.id === 'number') {
      patchUserCaches(queryClient, { user: event.user });
    }
  });
}
