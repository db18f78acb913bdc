import { describe, expect, it } from 'vitest';
import { can, hasRole, PERMISSIONS, roleOf } from './permissions';

const user = { profile: 'user', super: false } as const;
const admin = { profile: 'admin', super: false } as const;
const superUser = { profile: 'admin', super: true } as const;

describe('permission table', () => {
  it('ranks user < admin < super', () => {
    expect([user, admin, superUser].map(roleOf)).toEqual(['user', 'admin', 'super']);
    expect(hasRole(user, 'admin')).toBe(false);
    expect(hasRole(admin, 'admin')).toBe(true);
    expect(hasRole(admin, 'super')).toBe(false);
    expect(hasRole(superUser, 'admin')).toBe(true);
  });

  it('gives admin areas to admins only and super areas to the super user only', () => {
    expect(can(user, 'users:manage', {})).toBe(false);
    expect(can(admin, 'users:manage', {})).toBe(true);
    expect(can(admin, 'companies:manage', {})).toBe(false);
    expect(can(superUser, 'companies:manage', {})).toBe(true);
    expect(can(user, 'session:use', {})).toBe(true);
  });

  it('needs the plan flag for plan features, except for the super user', () => {
    expect(can(admin, 'campaigns:use', {})).toBe(false);
    expect(can(admin, 'campaigns:use', { useCampaigns: true })).toBe(true);
    expect(can(user, 'kanban:use', { useKanban: true })).toBe(true);
    expect(can(user, 'kanban:use', { useKanban: false })).toBe(false);
    expect(can(superUser, 'campaigns:use', {})).toBe(true);
  });

  it('names a known role for every permission', () => {
    for (const permission of Object.values(PERMISSIONS)) {
      expect(['user', 'admin', 'super']).toContain(permission.role);
    }
  });
});
