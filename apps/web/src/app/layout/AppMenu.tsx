import { APP_VERSION, CONNECTION_BADGE_CHECK_MS, type SessionUser } from '@atendi/shared';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { needsAttention, useConnections } from '../../features/connections/api';
import { MENU_ICONS } from './icons';
import { buildMenu, canAccess, type MenuEntry, type MenuSection } from './menu';

function isActive(entry: MenuEntry, pathname: string, search: string): boolean {
  const [path, query] = entry.to.split('?');
  if (path === '/') return pathname === '/';
  if (query) return pathname === path && search === `?${query}`;
  if (path === '/settings' && search.includes('tab=')) return false;
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The '!' badge: checked 2 s after load (spec core 2), then kept live by realtime events. */
function useConnectionsAlert(user: SessionUser): boolean {
  const allowed = canAccess(user, { permission: 'connections:manage' });
  const [due, setDue] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), CONNECTION_BADGE_CHECK_MS);
    return () => clearTimeout(timer);
  }, []);
  const { data } = useConnections({ enabled: allowed && due });
  return allowed && needsAttention(data ?? []);
}

const SECTION_TITLES: Record<MenuSection, string | null> = {
  main: null,
  admin: 'sections.admin',
  super: 'sections.super',
};

interface AppMenuProps {
  user: SessionUser;
  /** Icons only, labels in tooltips. */
  mini: boolean;
  onNavigate?: () => void;
}

export function AppMenu({ user, mini, onNavigate }: AppMenuProps) {
  const { t } = useTranslation('layout');
  const { pathname, search } = useLocation();
  const sections = useMemo(() => buildMenu(user), [user]);
  const connectionsAlert = useConnectionsAlert(user);

  const renderItem = (entry: MenuEntry) => {
    const Icon = MENU_ICONS[entry.icon];
    const label = t(`menu.${entry.key}`);
    const alert = entry.key === 'connections' && connectionsAlert;
    const accessibleLabel = alert ? `${label} (${t('connectionsAlert')})` : label;
    const button = (
      <ListItemButton
        component={Link}
        to={entry.to}
        selected={isActive(entry, pathname, search)}
        aria-current={isActive(entry, pathname, search) ? 'page' : undefined}
        aria-label={mini || alert ? accessibleLabel : undefined}
        onClick={onNavigate}
        sx={{ minHeight: 44, px: 2.5, justifyContent: mini ? 'center' : 'flex-start' }}
      >
        <ListItemIcon sx={{ minWidth: 0, mr: mini ? 0 : 2, justifyContent: 'center' }}>
          {alert ? (
            <Badge color="error" badgeContent="!" overlap="circular">
              <Icon />
            </Badge>
          ) : (
            <Icon />
          )}
        </ListItemIcon>
        {!mini && <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} />}
      </ListItemButton>
    );
    return (
      <li key={entry.key}>
        {mini ? (
          <Tooltip title={label} placement="right">
            {button}
          </Tooltip>
        ) : (
          button
        )}
      </li>
    );
  };

  return (
    <Box
      component="nav"
      aria-label={t('menuLabel')}
      sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
    >
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        {(Object.keys(sections) as MenuSection[]).map((section) => {
          const entries = sections[section];
          if (entries.length === 0) return null;
          const title = SECTION_TITLES[section];
          return (
            <Fragment key={section}>
              {title && <Divider />}
              <List
                dense
                aria-label={title ? t(title) : undefined}
                subheader={
                  title && !mini ? (
                    // scrolls with its items: a sticky heading was drawn over the first of them
                    <ListSubheader disableSticky sx={{ lineHeight: '36px' }}>
                      {t(title)}
                    </ListSubheader>
                  ) : undefined
                }
              >
                {entries.map(renderItem)}
              </List>
            </Fragment>
          );
        })}
      </Box>
      <Divider />
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ textAlign: 'center', py: 1, fontSize: mini ? 10 : undefined }}
      >
        {mini ? `v${APP_VERSION}` : t('version', { version: APP_VERSION })}
      </Typography>
    </Box>
  );
}
