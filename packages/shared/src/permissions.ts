import type { PlanFlag } from './plans/plans.schemas';
import type { Profile } from './users/users.schemas';

/** Who may do what. The server checks routes against it and the web builds its menu from it. */
export type Role = 'user' | 'admin' | 'super';
const RANK: Record<Role, number> = { user: 1, admin: 2, super: 3 };

export interface Permission {
  role: Role;
  /** Plan flag the company's plan must have on. */
  plan?: PlanFlag;
}

export const PERMISSIONS = {
  'session:use': { role: 'user' },
  'dashboard:view': { role: 'admin' },
  'users:read': { role: 'user' },
  'users:manage': { role: 'admin' },
  'settings:read': { role: 'user' },
  'settings:manage': { role: 'admin' },
  'companies:manage': { role: 'super' },
  'plans:manage': { role: 'super' },
  'helps:manage': { role: 'super' },
  'announcements:manage': { role: 'super' },
  'connections:read': { role: 'user' },
  'connections:manage': { role: 'admin' },
  'queues:manage': { role: 'admin' },
  'tickets:showAll': { role: 'admin' },
  'tickets:delete': { role: 'admin' },
  'tickets:spy': { role: 'admin' },
  'contacts:delete': { role: 'admin' },
  'financial:view': { role: 'admin' },
  /** File lists: no plan flag names them; the menu and the spec keep them to admins. */
  'files:manage': { role: 'admin' },
  /** Reading every user's quick replies, personal ones too (the others read shared and own). */
  'quickMessages:all': { role: 'admin' },
  'campaigns:use': { role: 'admin', plan: 'useCampaigns' },
  'kanban:use': { role: 'user', plan: 'useKanban' },
  'schedules:use': { role: 'user', plan: 'useSchedules' },
  'internalChat:use': { role: 'user', plan: 'useInternalChat' },
  'externalApi:use': { role: 'admin', plan: 'useExternalApi' },
  'prompts:use': { role: 'admin', plan: 'useOpenAi' },
  'integrations:use': { role: 'admin', plan: 'useIntegrations' },
} as const satisfies Record<string, Permission>;

export type PermissionName = keyof typeof PERMISSIONS;

export interface Principal {
  profile: Profile;
  super: boolean;
}

export const roleOf = (principal: Principal): Role =>
  principal.super ? 'super' : principal.profile === 'admin' ? 'admin' : 'user';

export const hasRole = (principal: Principal, role: Role): boolean =>
  RANK[roleOf(principal)] >= RANK[role];

/**
 * Whether the principal may use the permission. `planFlags` are the company plan's flags; the
 * super user's own company is not held back by its plan.
 */
export function can(
  principal: Principal,
  name: PermissionName,
  planFlags: Partial<Record<PlanFlag, boolean>>,
): boolean {
  const permission: Permission = PERMISSIONS[name];
  if (!hasRole(principal, permission.role)) return false;
  if (permission.plan && !principal.super && !planFlags[permission.plan]) return false;
  return true;
}
