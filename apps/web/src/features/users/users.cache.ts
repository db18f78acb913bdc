import type { User } from '@atendi/shared';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { setLiveQueryData } from '../../app/liveCache';

export interface UsersPage {
  users: User[];
  count: number;
  hasMore: boolean;
}

export type UsersPages = InfiniteData<UsersPage>;

export const usersKeys = {
  all: ['users'] as const,
  lists: ['users', 'list'] as const,
  list: (searchParam: string) => ['users', 'list', searchParam] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
};

/** The server searches names and emails; a live insert follows the same rule. */
export function matchesSearch(user: Pick<User, 'name' | 'email'>, searchParam: string): boolean {
  const term = searchParam.trim().toLowerCase();
  if (!term) return true;
  return (
    (user.name ?? '').toLowerCase().includes(term) ||
    (user.email ?? '').toLowerCase().includes(term)
  );
}

/** Replaces the user where it is listed, or puts it first when it belongs to this search. */
export function upsertUser(
  data: UsersPages | undefined,
  user: Partial<User> & { id: number },
  searchParam: string,
): UsersPages | undefined {
  if (!data || data.pages.length === 0) return data;
  const listed = data.pages.some((page) => page.users.some((item) => item.id === user.id));
  if (listed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        users: page.users.map((item) => (item.id === user.id ? { ...item, ...user } : item)),
      })),
    };
  }
  if (!isFullUser(user) || !matchesSearch(user, searchParam)) return data;
  const [first, ...rest] = data.pages as [UsersPage, ...UsersPage[]];
  return {
    ...data,
    pages: [{ ...first, users: [user, ...first.users], count: first.count + 1 }, ...rest],
  };
}

export function removeUser(data: UsersPages | undefined, userId: number): UsersPages | undefined {
  if (!data) return data;
  let removed = false;
  const pages = data.pages.map((page) => {
    const users = page.users.filter((item) => item.id !== userId);
    if (users.length !== page.users.length) removed = true;
    return { ...page, users };
  });
  if (!removed) return data;
  return { ...data, pages: pages.map((page) => ({ ...page, count: Math.max(0, page.count - 1) })) };
}

function isFullUser(user: Partial<User>): user is User {
  return typeof user.name === 'string' && typeof user.email === 'string';
}

/** Rows of all loaded pages; a live insert can push a row onto the next page, so ids dedupe. */
export function flattenUsers(data: UsersPages | undefined): User[] {
  const seen = new Set<number>();
  const rows: User[] = [];
  for (const page of data?.pages ?? []) {
    for (const user of page.users) {
      if (seen.has(user.id)) continue;
      seen.add(user.id);
      rows.push(user);
    }
  }
  return rows;
}

/** Applies one user change to every cached list and to the user's own entry. */
export function patchUserCaches(
  queryClient: QueryClient,
  change: { user: Partial<User> & { id: number } } | { removedId: number },
): void {
  for (const [key] of queryClient.getQueriesData<UsersPages>({ queryKey: usersKeys.lists })) {
    const searchParam = typeof key[2] === 'string' ? key[2] : '';
    setLiveQueryData<UsersPages>(queryClient, key, (data) =>
      'removedId' in change
        ? removeUser(data, change.removedId)
        : upsertUser(data, change.user, searchParam),
    );
  }
  if ('removedId' in change) {
    queryClient.removeQueries({ queryKey: usersKeys.detail(change.removedId) });
  } else {
    queryClient.setQueryData<User>(usersKeys.detail(change.user.id), (current) =>
      current ? { ...current, ...change.user } : current,
    );
  }
}
