import { type Ticket, ticketsContract as tickets } from '@atendi/shared';
import NotificationsIcon from '@mui/icons-material/Notifications';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../app/api';
import { useSessionUser } from '../../../app/auth';
import { useClock } from '../../../app/clock';
import { useCompanyEvent } from '../../../app/socket';
import { whatsappText } from '../../../app/whatsappText';

export const notificationsKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  pending: ['notifications', 'pending'] as const,
};

/** Newest activity first, each ticket once. */
export function notificationTickets(unread: Ticket[], pending: Ticket[]): Ticket[] {
  const byId = new Map<number, Ticket>();
  for (const ticket of [...unread, ...pending]) {
    if (ticket.status === 'closed') continue;
    byId.set(ticket.id, ticket);
  }
  return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/**
 * The top bar's notifications (spec core 2 and 6): the tickets the user may see that have new
 * messages, and, for users with allTicket, the waiting ones too, with their count. A click opens
 * the ticket (a waiting one opens the waiting line, where it is accepted). The chime and the
 * browser notification of a new message come from the alerts (alerts.ts).
 */
export function NotificationsPopover() {
  const { t } = useTranslation('notifications');
  const clock = useClock();
  const me = useSessionUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const allTicket = me.allTicket === 'enabled';

  const unread = useQuery({
    queryKey: notificationsKeys.unread,
    meta: { silent: true },
    queryFn: ({ signal }) =>
      api.call(tickets.list, { query: { withUnreadMessages: true, pageNumber: 1 }, signal }),
  });
  const pending = useQuery({
    queryKey: notificationsKeys.pending,
    enabled: allTicket,
    meta: { silent: true },
    queryFn: ({ signal }) =>
      api.call(tickets.list, { query: { status: 'pending', pageNumber: 1 }, signal }),
  });

  // new messages, reads, accepts and transfers change the list: ask again
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationsKeys.all });
  useCompanyEvent('appMessage', refresh);
  useCompanyEvent('ticket', refresh);

  const list = useMemo(
    () =>
      notificationTickets(
        unread.data?.tickets ?? [],
        allTicket ? (pending.data?.tickets ?? []) : [],
      ),
    [unread.data, pending.data, allTicket],
  );
  const count = list.length;
  const label = count ? t('labelCount', { count }) : t('label');

  return (
    <>
      <Tooltip title={t('title')}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? popoverId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={count} color="secondary" max={99}>
            <NotificationsIcon />
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
            'aria-label': t('title'),
            sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: 440 },
          },
        }}
      >
        {count === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('empty')}
          </Typography>
        ) : (
          <List dense aria-label={t('title')}>
            {list.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                onClick={() => {
                  setAnchor(null);
                  void navigate(
                    ticket.status === 'pending' ? '/tickets' : `/tickets/${ticket.uuid}`,
                  );
                }}
              >
                <ListItemAvatar>
                  <Avatar
                    src={ticket.contact?.profilePicUrl || undefined}
                    alt=""
                    sx={{ width: 32, height: 32 }}
                  />
                </ListItemAvatar>
                <ListItemText
                  primary={
                    ticket.unreadMessages
                      ? t('itemUnread', {
                          name: ticket.contact?.name ?? '',
                          count: ticket.unreadMessages,
                        })
                      : t('itemPending', { name: ticket.contact?.name ?? '' })
                  }
                  secondary={
                    <>
                      {whatsappText(ticket.lastMessage ?? '')} ·{' '}
                      {clock.shortDateTime(ticket.updatedAt)}
                    </>
                  }
                  slotProps={{ secondary: { noWrap: true } }}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
