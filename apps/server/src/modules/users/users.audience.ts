import { type User, type UserListItem, usersContract } from '@atendi/shared';
import { type Audience, type RealtimeAudience, readersOf } from '../../platform/realtime';

/** What GET /users/list answers of a user: the whole record is for admins and the user. */
const listItem = ({ id, name, email, profile, online, queues }: User): UserListItem => ({
  id,
  name,
  email,
  profile,
  online,
  queues,
});

/**
 * Users: the whole record to whoever may read it (GET /users, and the user its own through
 * GET /users/:id), the list's fields to whoever may read the list (GET /users/list); presence
 * to the users page (GET /users answers it).
 */
export const usersAudience: RealtimeAudience = (events, realtime) => {
  events.on('user.saved', ({ companyId, action, user }) => {
    const whole: Audience = { ...readersOf(companyId, usersContract.list), userIds: [user.id] };
    realtime.emit(whole, 'user', { action, user });
    realtime.emit(
      readersOf(companyId, usersContract.listAll),
      'user',
      { action, user: listItem(user) },
      whole,
    );
  });
  events.on('user.deleted', ({ companyId, userId }) =>
    realtime.emit(readersOf(companyId, usersContract.listAll), 'user', {
      action: 'delete',
      userId,
    }),
  );
  events.on('user.presence', ({ companyId, userId, online }) =>
    realtime.emit(readersOf(companyId, usersContract.list), 'user', {
      action: 'presence',
      userId,
      online,
    }),
  );
};
