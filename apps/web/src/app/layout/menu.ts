import {
  can,
  hasRole,
  PERMISSIONS,
  type PermissionName,
  type PlanFlag,
  type Principal,
  type Role,
} from '@atendi/shared';
import { hasCampaignFlag } from '../session';

export type MenuSection = 'main' | 'admin' | 'super';

export type MenuIcon =
  | 'dashboard'
  | 'tickets'
  | 'quickMessages'
  | 'kanban'
  | 'contacts'
  | 'schedules'
  | 'tags'
  | 'chats'
  | 'todolist'
  | 'helps'
  | 'simulator'
  | 'campaigns'
  | 'contactLists'
  | 'campaignsConfig'
  | 'announcements'
  | 'prompts'
  | 'integrations'
  | 'connections'
  | 'files'
  | 'queues'
  | 'users'
  | 'messagesApi'
  | 'financial'
  | 'settings'
  | 'companies'
  | 'plans';

/** Who may open a page: the same rule hides its menu item and closes its route. */
export interface AccessRule {
  /** A row of the shared permission table... */
  permission?: PermissionName;
  /** ...or, for pages the table does not name, the least role. */
  minRole?: Role;
  /** Campaign pages also need the company's campaignsEnabled setting. */
  needsCampaigns?: boolean;
}

export interface MenuEntry extends AccessRule {
  /** Also the translation key under layout:menu. */
  key: string;
  to: string;
  icon: MenuIcon;
  section: MenuSection;
}

/** Every page of the drawer, in the original product's order. */
export const MENU: readonly MenuEntry[] = [
  { key: 'dashboard', to: '/', icon: 'dashboard', section: 'main', permission: 'dashboard:view' },
  { key: 'tickets', to: '/tickets', icon: 'tickets', section: 'main', permission: 'session:use' },
  {
    key: 'quickMessages',
    to: '/quick-messages',
    icon: 'quickMessages',
    section: 'main',
    minRole: 'user',
  },
  { key: 'kanban', to: '/kanban', icon: 'kanban', section: 'main', permission: 'kanban:use' },
  { key: 'contacts', to: '/contacts', icon: 'contacts', section: 'main', minRole: 'user' },
  {
    key: 'schedules',
    to: '/schedules',
    icon: 'schedules',
    section: 'main',
    permission: 'schedules:use',
  },
  { key: 'tags', to: '/tags', icon: 'tags', section: 'main', minRole: 'user' },
  { key: 'chats', to: '/chats', icon: 'chats', section: 'main', permission: 'internalChat:use' },
  { key: 'todolist', to: '/todolist', icon: 'todolist', section: 'main', minRole: 'user' },
  { key: 'helps', to: '/helps', icon: 'helps', section: 'main', minRole: 'user' },
  // the built-in fake WhatsApp network: anyone of the company may play its contacts
  {
    key: 'simulator',
    to: '/simulator',
    icon: 'simulator',
    section: 'main',
    permission: 'connections:read',
  },
  {
    key: 'campaigns',
    to: '/campaigns',
    icon: 'campaigns',
    section: 'admin',
    permission: 'campaigns:use',
    needsCampaigns: true,
  },
  {
    key: 'contactLists',
    to: '/contact-lists',
    icon: 'contactLists',
    section: 'admin',
    permission: 'campaigns:use',
    needsCampaigns: true,
  },
  {
    key: 'campaignsConfig',
    to: '/campaigns-config',
    icon: 'campaignsConfig',
    section: 'admin',
    permission: 'campaigns:use',
    needsCampaigns: true,
  },
  { key: 'prompts', to: '/prompts', icon: 'prompts', section: 'admin', permission: 'prompts:use' },
  {
    key: 'integrations',
    to: '/queue-integration',
    icon: 'integrations',
    section: 'admin',
    permission: 'integrations:use',
  },
  {
    key: 'connections',
    to: '/connections',
    icon: 'connections',
    section: 'admin',
    permission: 'connections:manage',
  },
  { key: 'files', to: '/files', icon: 'files', section: 'admin', permission: 'files:manage' },
  { key: 'queues', to: '/queues', icon: 'queues', section: 'admin', permission: 'queues:manage' },
  { key: 'users', to: '/users', icon: 'users', section: 'admin', permission: 'users:manage' },
  {
    key: 'messagesApi',
    to: '/messages-api',
    icon: 'messagesApi',
    section: 'admin',
    permission: 'externalApi:use',
  },
  {
    key: 'financial',
    to: '/financeiro',
    icon: 'financial',
    section: 'admin',
    permission: 'financial:view',
  },
  {
    key: 'settings',
    to: '/settings',
    icon: 'settings',
    section: 'admin',
    permission: 'settings:manage',
  },
  {
    key: 'announcements',
    to: '/announcements',
    icon: 'announcements',
    section: 'super',
    permission: 'announcements:manage',
  },
  {
    key: 'companies',
    to: '/settings?tab=companies',
    icon: 'companies',
    section: 'super',
    permission: 'companies:manage',
  },
  {
    key: 'plans',
    to: '/settings?tab=plans',
    icon: 'plans',
    section: 'super',
    permission: 'plans:manage',
  },
  {
    key: 'helpsAdmin',
    to: '/settings?tab=helps',
    icon: 'helps',
    section: 'super',
    permission: 'helps:manage',
  },
];

export interface MenuUser extends Principal {
  company: {
    plan: Partial<Record<PlanFlag, boolean>>;
  };
}

/**
 * The campaign and contact-list pages follow the 'cshow' flag in the browser's storage, as the spec
 * says; the session writes it from the company's campaignsEnabled setting when the user signs in.
 */
export function campaignsEnabled(): boolean {
  return hasCampaignFlag();
}

/**
 * Why a page is closed to the user: 'role' when its profile is short of the page's, 'company'
 * when the company's plan (or its campaigns setting) leaves it out; null when it is open.
 */
export function accessDenial(user: MenuUser, rule: AccessRule): 'role' | 'company' | null {
  if (rule.permission && !hasRole(user, PERMISSIONS[rule.permission].role)) return 'role';
  if (rule.minRole && !hasRole(user, rule.minRole)) return 'role';
  if (rule.permission && !can(user, rule.permission, user.company.plan)) return 'company';
  if (rule.needsCampaigns && !campaignsEnabled()) return 'company';
  return null;
}

export function canAccess(user: MenuUser, rule: AccessRule): boolean {
  return accessDenial(user, rule) === null;
}

/** The drawer's items for this user, by section, from the shared permission table. */
export function buildMenu(user: MenuUser): Record<MenuSection, MenuEntry[]> {
  const sections: Record<MenuSection, MenuEntry[]> = { main: [], admin: [], super: [] };
  for (const entry of MENU) {
    if (canAccess(user, entry)) sections[entry.section].push(entry);
  }
  return sections;
}
