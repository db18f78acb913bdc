import { type User, userListItemSchema, usersContract } from '@atendi/shared';
import { type Audience, type RealtimeAudience, readersOf } from '../../platform/realtime';

/** Who reads whole users through GET /users: admins (the other profiles get the list's fields). */
const wholeReaders = (companyId: number): Audience => ({ companyId, may: 'users:manage' });

/** What GET /users/list answers of a user. */
const listItem = (user: User) => userListItemSchema.parse(user);

/**
 * Users: the whole record to whoever may read it (admins through GET /users, and the user its
 * own through GET /users/:id), the list's fields to whoever may read the list (GET /users/list);
 * presence to the admins' users page.
 */
export const usersAudience: RealtimeAudience = (events, realtime) => {
  events.on('user.saved', ({ companyId, action, user }) => {
    const whole: Audience = { ...wholeReaders(companyId), userIds: [user.id] };
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
    realtime.emit(wholeReaders(companyId), 'user', {
      action: 'presence',
      userId,
      online,
    }),
  );
};
