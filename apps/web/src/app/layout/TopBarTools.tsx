import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import CachedIcon from '@mui/icons-material/Cached';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import TranslateIcon from '@mui/icons-material/Translate';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVolume } from '../preferences';
import { useThemeMode } from '../theme';
import { LanguageChoices } from './LanguageMenu';
import { VolumeIcon, VolumePopover } from './VolumeControl';

/** The theme's switch: what it turns on, and its icon. */
function useThemeSwitch() {
  const { t } = useTranslation('layout');
  const { mode, toggleMode } = useThemeMode();
  return {
    label: mode === 'light' ? t('theme.toDark') : t('theme.toLight'),
    Icon: mode === 'light' ? Brightness4Icon : Brightness7Icon,
    toggle: toggleMode,
  };
}

const reload = () => window.location.reload();

export function ThemeToggle() {
  const theme = useThemeSwitch();
  return (
    <Tooltip title={theme.label}>
      <IconButton color="inherit" aria-label={theme.label} onClick={theme.toggle}>
        <theme.Icon />
      </IconButton>
    </Tooltip>
  );
}

export function RefreshButton() {
  const { t } = useTranslation('layout');
  return (
    <Tooltip title={t('refresh')}>
      <IconButton color="inherit" aria-label={t('refresh')} onClick={reload}>
        <CachedIcon />
      </IconButton>
    </Tooltip>
  );
}

/**
 * Volume, reload, theme and language behind one 'Mais opções' button: a phone's top bar has room for the greeting
 * and the buttons that carry news (notifications, chats, announcements) only.
 */
export function TopBarMoreMenu() {
  const { t } = useTranslation('layout');
  const theme = useThemeSwitch();
  const [volume] = useVolume();
  const button = useRef<HTMLButtonElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [opened, setOpened] = useState<'volume' | 'language' | null>(null);
  const menuId = useId();
  const openNext = (next: 'volume' | 'language') => {
    setMenuOpen(false);
    setOpened(next);
  };
  return (
    <>
      <IconButton
        ref={button}
        color="inherit"
        aria-label={t('more')}
        aria-haspopup="menu"
        aria-expanded={menuOpen ? 'true' : undefined}
        aria-controls={menuOpen ? menuId : undefined}
        onClick={() => setMenuOpen(true)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu
        id={menuId}
        anchorEl={button.current}
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem aria-haspopup="dialog" onClick={() => openNext('volume')}>
          <ListItemIcon>
            <VolumeIcon volume={volume} fontSize="small" />
          </ListItemIcon>
          {t('volume.label')}
        </MenuItem>
        <MenuItem onClick={reload}>
          <ListItemIcon>
            <CachedIcon fontSize="small" />
          </ListItemIcon>
          {t('refresh')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenuOpen(false);
            theme.toggle();
          }}
        >
          <ListItemIcon>
            <theme.Icon fontSize="small" />
          </ListItemIcon>
          {theme.label}
        </MenuItem>
        <MenuItem aria-haspopup="menu" onClick={() => openNext('language')}>
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          {t('language.label')}
        </MenuItem>
      </Menu>
      <VolumePopover
        anchor={opened === 'volume' ? button.current : null}
        onClose={() => setOpened(null)}
      />
      <LanguageChoices
        anchor={opened === 'language' ? button.current : null}
        onClose={() => setOpened(null)}
      />
    </>
  );
}
