import type { User } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { flattenUsers, removeUser, type UsersPages, upsertUser } from './users.cache';

const user = (id: number, name: string): User => ({
  id,
  name,
  email: `${name.toLowerCase()}@empresa.com`,
  profile: 'user',
  super: false,
  allTicket: 'desabled',
  online: false,
  companyId: 1,
  whatsappId: null,
  queues: [],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

const pages = (...lists: User[][]): UsersPages => ({
  pages: lists.map((users, index) => ({ users, count: 3, hasMore: index < lists.length - 1 })),
  pageParams: lists.map((_, index) => index + 1),
});

describe('users list cache', () => {
  it('updates a listed user in place, on whichever page it is', () => {
    const data = pages([user(1, 'Ana')], [user(2, 'Bia')]);
    const next = upsertUser(data, { id: 2, name: 'Beatriz' }, '');
    expect(flattenUsers(next).map((item) => item.name)).toEqual(['Ana', 'Beatriz']);
    expect(flattenUsers(next)[1]?.email).toBe('bia@empresa.com');
  });

  it('puts a new user first when it matches the search, and nowhere when it does not', () => {
    const data = pages([user(1, 'Ana')]);
    const created = user(9, 'Carla');
    expect(flattenUsers(upsertUser(data, created, '')).map((item) => item.id)).toEqual([9, 1]);
    expect(flattenUsers(upsertUser(data, created, 'carl')).map((item) => item.id)).toEqual([9, 1]);
    expect(upsertUser(data, created, 'ana')).toBe(data);
  });

  it('does not invent a row from a partial change (presence of an unlisted user)', () => {
    const data = pages([user(1, 'Ana')]);
    expect(upsertUser(data, { id: 5, online: true }, '')).toBe(data);
  });

  it('removes a deleted user and lowers the count', () => {
    const data = pages([user(1, 'Ana'), user(2, 'Bia')]);
    const next = removeUser(data, 1);
    expect(flattenUsers(next).map((item) => item.id)).toEqual([2]);
    expect(next?.pages[0]?.count).toBe(2);
    expect(removeUser(data, 77)).toBe(data);
  });

  it('shows a row once when a live insert pushed it onto the next page too', () => {
    const data = pages([user(9, 'Carla'), user(1, 'Ana')], [user(1, 'Ana'), user(2, 'Bia')]);
    expect(flattenUsers(data).map((item) => item.id)).toEqual([9, 1, 2]);
  });
});
