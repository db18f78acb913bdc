import { companyEvent, type User } from '@atendi/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../app/socket';
import { patchUserCaches } from './users.cache';

export interface UserEvent {
  action: 'create' | 'update' | 'delete' | 'presence';
  user?: Partial<User> & { id: number };
  userId?: number;
  /** With 'presence': whether the user has the app open. */
  online?: boolean;
}

/** Users lists follow the company's changes live, wherever they were made. */
export function useUsersRealtime(companyId: number) {
  const queryClient = useQueryClient();
  useSocketEvent<UserEvent>(companyEvent(companyId, 'user'), (event) => {
    if (event.action === 'delete') {
      const id = event.userId ?? event.user?.id;
      if (id !== undefined) patchUserCaches(queryClient, { removedId: Number(id) });
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
