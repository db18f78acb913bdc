import { hasRole, type SessionUser } from '@atendi/shared';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useEffect, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { AnnouncementsPopover } from '../../features/announcements/components/AnnouncementsPopover';
import { ChatsPopover } from '../../features/chats/components/ChatsPopover';
import { useConnectionsRealtime } from '../../features/connections/realtime';
import { useMessageAlerts } from '../../features/tickets/alerts';
import { NotificationsPopover } from '../../features/tickets/components/NotificationsPopover';
import { useUsersRealtime } from '../../features/users/realtime';
import { useSessionUser } from '../auth';
import { PageLoader } from '../components/PageLoader';
import { formatDate } from '../format';
import { SocketProvider } from '../socket';
import { AccountMenu } from './AccountMenu';
import { AppMenu } from './AppMenu';
import { LanguageMenu } from './LanguageMenu';
import { canAccess } from './menu';
import { RefreshButton, ThemeToggle, TopBarMoreMenu } from './TopBarTools';
import { VolumeControl } from './VolumeControl';

const DRAWER_WIDTH = 248;
const MINI_WIDTH = 64;
/** The drawer starts open on screens wider than this (spec core 2). */
const OPEN_DRAWER_MIN_WIDTH = 1200;

function Greeting({ user }: { user: SessionUser }) {
  const { t } = useTranslation('layout');
  const showDueDate = hasRole(user, 'admin') && Boolean(user.company?.dueDate);
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography noWrap sx={{ display: { xs: 'none', md: 'block' } }}>
        <Trans
          t={t}
          i18nKey="greeting"
          values={{ name: user.name, company: user.company?.name ?? '' }}
          components={{ b: <strong /> }}
        />
      </Typography>
      <Typography noWrap sx={{ display: { xs: 'block', md: 'none' } }}>
        {t('greetingShort', { name: user.name.split(' ')[0] })}
      </Typography>
      {showDueDate && (
        <Typography noWrap variant="caption" component="p">
          {t('activeUntil', { date: formatDate(user.company.dueDate) })}
        </Typography>
      )}
    </Box>
  );
}

function Shell() {
  const { t } = useTranslation('layout');
  const user = useSessionUser();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useState(() => window.innerWidth > OPEN_DRAWER_MIN_WIDTH);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const { pathname } = useLocation();
  const drawerId = useId();
  useConnectionsRealtime();
  useUsersRealtime();
  useMessageAlerts();

  // a phone's drawer covers the page: close it once the user picked where to go
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setPhoneOpen(false), [pathname]);

  const expanded = isPhone ? phoneOpen : open;
  const width = open ? DRAWER_WIDTH : MINI_WIDTH;

  return (
    <Box sx={{ display: 'flex', height: '100dvh', overflow: 'hidden' }}>
      <AppBar
        position="fixed"
        elevation={1}
        // over the side drawer on wide screens; a phone's drawer covers the bar instead
        sx={{ zIndex: (current) => (isPhone ? current.zIndex.appBar : current.zIndex.drawer + 1) }}
      >
        <Toolbar
          sx={{
            gap: { xs: 0, sm: 0.5 },
            // the edge buttons' negative margins reach the screen's edges, not past them
            px: { xs: 1.5, sm: 2 },
            // 36 px targets keep every control on a 375 px phone
            '& .MuiIconButton-root': { p: { xs: 0.75, sm: 1 } },
          }}
        >
          <IconButton
            color="inherit"
            edge="start"
            aria-label={expanded ? t('drawer.close') : t('drawer.open')}
            aria-expanded={expanded}
            aria-controls={drawerId}
            onClick={() => (isPhone ? setPhoneOpen((value) => !value) : setOpen((value) => !value))}
            sx={{ mr: 1 }}
          >
            {expanded && !isPhone ? <ChevronLeftIcon /> : <MenuIcon />}
          </IconButton>
          <Greeting user={user} />
          {/* a phone keeps the buttons that bring news; the others go under 'Mais opções' */}
          {!isPhone && <VolumeControl />}
          {!isPhone && <RefreshButton />}
          <Suspense fallback={null}>
            <NotificationsPopover />
          </Suspense>
          {canAccess(user, { permission: 'internalChat:use' }) && (
            <Suspense fallback={null}>
              <ChatsPopover />
            </Suspense>
          )}
          {!isPhone && <ThemeToggle />}
          <AnnouncementsPopover />
          {isPhone ? <TopBarMoreMenu /> : <LanguageMenu />}
          <AccountMenu />
        </Toolbar>
      </AppBar>

      {isPhone ? (
        <Drawer
          id={drawerId}
          variant="temporary"
          open={phoneOpen}
          onClose={() => setPhoneOpen(false)}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH, display: 'flex' } } }}
        >
          <AppMenu user={user} mini={false} onNavigate={() => setPhoneOpen(false)} />
        </Drawer>
      ) : (
        <Drawer
          id={drawerId}
          variant="permanent"
          sx={{
            width,
            flexShrink: 0,
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': {
              width,
              overflowX: 'hidden',
              transition: theme.transitions.create('width'),
              display: 'flex',
            },
          }}
        >
          <Toolbar />
          <AppMenu user={user} mini={!open} />
        </Drawer>
      )}

      <Box
        component="main"
        sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', overflow: 'auto' }}
      >
        <Toolbar />
        <Box
          sx={{
            flex: 1,
            minHeight: 0,
            display: 'flex',
            flexDirection: 'column',
            p: { xs: 1.5, sm: 3 },
          }}
        >
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}

/** The signed-in frame: realtime connection, top bar, drawer and the current page. */
export function Layout() {
  return (
    <SocketProvider>
      <Shell />
    </SocketProvider>
  );
}
