import ForumIcon from '@mui/icons-material/Forum';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../../app/auth';
import { useClock } from '../../../app/clock';
import { useChats } from '../api';
import { unreadsOf } from '../chats.cache';
import { useChatsRealtime } from '../realtime';

/**
 * The top bar's internal chats (spec core 2): a count of unread messages, and the chats, each
 * opening /chats/{uuid}. It keeps the chats current for every screen.
 */
export function ChatsPopover() {
  const { t } = useTranslation('chats');
  const clock = useClock();
  const me = useSessionUser();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const query = useChats();
  useChatsRealtime();

  const chats = useMemo(
    () => query.data?.pages.flatMap((page) => page.records) ?? [],
    [query.data],
  );
  const count = chats.reduce((sum, chat) => sum + unreadsOf(chat, me.id), 0);
  const label = count ? t('popover.labelUnread', { count }) : t('popover.label');

  return (
    <>
      <Tooltip title={t('popover.title')}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? popoverId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={count} color="secondary" max={99} data-testid="chats-popover-count">
            <ForumIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={popoverId}
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-label': t('popover.title'),
            sx: { width: 340, maxWidth: 'calc(100vw - 16px)', maxHeight: 420 },
          },
        }}
      >
        {chats.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('empty')}
          </Typography>
        ) : (
          <List dense aria-label={t('popover.title')}>
            {chats.map((chat) => {
              const unreads = unreadsOf(chat, me.id);
              return (
                <ListItemButton
                  key={chat.id}
                  onClick={() => {
                    setAnchor(null);
                    void navigate(`/chats/${chat.uuid}`);
                  }}
                  sx={{ bgcolor: unreads ? 'action.hover' : undefined }}
                >
                  <ListItemText
                    primary={unreads ? `${chat.title} (${unreads})` : chat.title}
                    secondary={`${chat.lastMessage || t('noMessages')} · ${clock.shortDateTime(chat.updatedAt)}`}
                    slotProps={{
                      primary: { sx: { fontWeight: unreads ? 700 : 400 } },
                      secondary: { noWrap: true },
                    }}
                  />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </Popover>
    </>
  );
}
