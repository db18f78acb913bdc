import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp, sessionUser } from '../../test/render';
import { storeCampaignFlag } from '../session';
import { AppMenu } from './AppMenu';
import { buildMenu } from './menu';

// what a sign-in writes for a company with campaigns on
beforeEach(() => storeCampaignFlag(true));

const keys = (user: ReturnType<typeof sessionUser>) => {
  const menu = buildMenu(user);
  return {
    main: menu.main.map((e) => e.key),
    admin: menu.admin.map((e) => e.key),
    super: menu.super.map((e) => e.key),
  };
};

const allFlags = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};

describe('menu built from the permission table', () => {
  it('gives a user on a bare plan the everyday pages and nothing to administer', () => {
    const menu = keys(sessionUser({ profile: 'user' }));
    expect(menu.main).toEqual([
      'tickets',
      'quickMessages',
      'contacts',
      'tags',
      'todolist',
      'helps',
      'simulator',
    ]);
    expect(menu.admin).toEqual([]);
    expect(menu.super).toEqual([]);
  });

  it('adds the plan pages a user may use when the plan has them', () => {
    const menu = keys(sessionUser({ profile: 'user', company: { plan: allFlags as never } }));
    expect(menu.main).toEqual([
      'tickets',
      'quickMessages',
      'kanban',
      'contacts',
      'schedules',
      'tags',
      'chats',
      'todolist',
      'helps',
      'simulator',
    ]);
    // campaigns, prompts, integrations and API are admin pages even on a full plan
    expect(menu.admin).toEqual([]);
  });

  it('gives an admin the dashboard and the admin section, plan pages only with their flags', () => {
    const bare = keys(sessionUser({ profile: 'admin' }));
    expect(bare.main[0]).toBe('dashboard');
    expect(bare.admin).toEqual([
      'connections',
      'files',
      'queues',
      'users',
      'financial',
      'settings',
    ]);
    expect(bare.super).toEqual([]);

    const kanbanOnly = keys(
      sessionUser({
        profile: 'admin',
        company: { plan: { useKanban: true, useOpenAi: true } as never },
      }),
    );
    expect(kanbanOnly.main).toContain('kanban');
    expect(kanbanOnly.main).not.toContain('schedules');
    expect(kanbanOnly.admin).toContain('prompts');
    expect(kanbanOnly.admin).not.toContain('integrations');
    expect(kanbanOnly.admin).not.toContain('messagesApi');

    const full = keys(sessionUser({ profile: 'admin', company: { plan: allFlags as never } }));
    expect(full.admin).toEqual([
      'campaigns',
      'contactLists',
      'campaignsConfig',
      'prompts',
      'integrations',
      'connections',
      'files',
      'queues',
      'users',
      'messagesApi',
      'financial',
      'settings',
    ]);
  });

  it("shows the campaign pages only while the 'cshow' flag is in the browser's storage", () => {
    const admin = sessionUser({ profile: 'admin', company: { plan: allFlags as never } });
    storeCampaignFlag(false);
    try {
      const menu = keys(admin);
      expect(menu.admin).not.toContain('campaigns');
      expect(menu.admin).not.toContain('contactLists');
      expect(menu.admin).not.toContain('campaignsConfig');
      expect(menu.admin).toContain('prompts');
    } finally {
      storeCampaignFlag(true);
    }
    expect(localStorage.getItem('cshow')).not.toBeNull();
    expect(keys(admin).admin).toEqual(expect.arrayContaining(['campaigns', 'contactLists']));
  });

  it('gives the super user announcements and the platform areas, whatever the plan', () => {
    const menu = keys(sessionUser({ profile: 'admin', super: true }));
    expect(menu.super).toEqual(['announcements', 'companies', 'plans', 'helpsAdmin']);
    expect(menu.main).toContain('kanban');
    expect(menu.admin).toContain('messagesApi');
  });

  it('renders the allowed items as links with the version in the footer', async () => {
    renderWithApp(<AppMenu user={sessionUser({ profile: 'admin' })} mini={false} />, {
      route: '/users',
    });
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    const tickets = within(nav).getByRole('link', { name: 'Atendimentos' });
    expect(tickets.getAttribute('href')).toBe('/tickets');
    // nothing hidden (an invisible badge) leaks into what a screen reader says
    expect(tickets.textContent).toBe('Atendimentos');
    const users = within(nav).getByRole('link', { name: 'Usuários' });
    expect(users.getAttribute('href')).toBe('/users');
    expect(users.getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByText('Administração')).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Kanban' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Informativos' })).toBeNull();
    expect(within(nav).getByText('Versão 6.0.0')).toBeTruthy();
  });

  it('shows a plain user no admin section', async () => {
    renderWithApp(<AppMenu user={sessionUser({ profile: 'user' })} mini={false} />);
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).queryByText('Administração')).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Usuários' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).toBeNull();
  });
});
