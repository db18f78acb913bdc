import type { Ticket } from '@atendi/shared';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListItemButton from '@mui/material/ListItemButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../../app/format';
import { mediaHref } from '../../messages/api';
import { formatBody } from '../../messages/format';

/** Phones show at most 10 characters of a contact's name (spec core 9). */
export const NAME_LIMIT_ON_PHONE = 10;

export function shortName(name: string, phone: boolean): string {
  return phone && name.length > NAME_LIMIT_ON_PHONE
    ? `${name.slice(0, NAME_LIMIT_ON_PHONE)}…`
    : name;
}

function when(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date();
  if (date.toDateString() === today.toDateString()) return formatTime(date);
  const local = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(
    date.getDate(),
  ).padStart(2, '0')}`;
  return formatDate(local);
}

interface TicketListItemProps {
  ticket: Ticket;
  selected: boolean;
  canSpy: boolean;
  accepting: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onSpy: (ticket: Ticket) => void;
}

export const TicketListItem = memo(function TicketListItem(props: TicketListItemProps) {
  const { ticket, selected, canSpy, accepting, onOpen, onAccept, onSpy } = props;
  const { t } = useTranslation('tickets');
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const pending = ticket.status === 'pending';
  const name = ticket.contact?.name ?? '';
  const color = ticket.queue?.color ?? '#9e9e9e';

  return (
    <Box
      sx={{ display: 'flex', alignItems: 'stretch', borderBottom: 1, borderColor: 'divider' }}
      data-testid="ticket-item"
    >
      <Box
        aria-hidden
        title={ticket.queue?.name ?? t('noQueue')}
        sx={{ width: 6, flexShrink: 0, bgcolor: color }}
      />
      {pending ? (
        // a waiting ticket is taken with its button, not opened by a click
        <Box
          sx={{
            display: 'flex',
            alignItems: 'flex-start',
            gap: 1.5,
            py: 1,
            px: 2,
            flex: 1,
            minWidth: 0,
          }}
        >
          <Avatar
            src={mediaHref(ticket.contact?.profilePicUrl ?? null)}
            alt={name}
            sx={{ mt: 0.5 }}
          >
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography noWrap sx={{ flex: 1, fontWeight: 600 }} title={name}>
                {shortName(name, phone)}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                {when(ticket.updatedAt)}
              </Typography>
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
                {formatBody(ticket.lastMessage)}
              </Typography>
              {ticket.unreadMessages > 0 && (
                <Box
                  component="span"
                  role="img"
                  aria-label={t('item.unread', { count: ticket.unreadMessages })}
                  sx={{
                    minWidth: 20,
                    height: 20,
                    px: 0.75,
                    borderRadius: 10,
                    fontSize: 12,
                    lineHeight: '20px',
                    textAlign: 'center',
                    fontWeight: 600,
                    bgcolor: 'success.dark',
                    color: 'success.contrastText',
                  }}
                >
                  {ticket.unreadMessages > 999 ? '999+' : ticket.unreadMessages}
                </Box>
              )}
            </Box>
            <Box
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}
            >
              {ticket.queue && (
                <Chip
                  size="small"
                  label={ticket.queue.name}
                  sx={{ bgcolor: color, color: '#fff', height: 20, fontSize: 11 }}
                />
              )}
              {ticket.user && ticket.status !== 'pending' && (
                <Chip
                  size="small"
                  variant="outlined"
                  label={ticket.user.name}
                  sx={{ height: 20, fontSize: 11 }}
                />
              )}
              {ticket.tags.map((tag) => (
                <Chip
                  key={tag.id}
                  size="small"
                  label={tag.name}
                  sx={{ bgcolor: tag.color, color: '#fff', height: 20, fontSize: 11 }}
                />
              ))}
            </Box>
          </Box>
        </Box>
      ) : (
        <ListItemButton
          selected={selected}
          onClick={() => onOpen(ticket)}
          aria-current={selected ? 'page' : undefined}
          sx={{ alignItems: 'flex-start', gap: 1.5, py: 1, pr: 1, minWidth: 0 }}
        >
          <Avatar
            src={mediaHref(ticket.contact?.profilePicUrl ?? null)}
            alt={name}
            sx={{ mt: 0.5 }}
          >
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography noWrap sx={{ flex: 1, fontWeight: 600 }} title={name}>
                {shortName(name, phone)}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                {when(ticket.updatedAt)}
              </Typography>
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
                {formatBody(ticket.lastMessage)}
              </Typography>
              {ticket.unreadMessages > 0 && (
                <Box
                  component="span"
                  role="img"
                  aria-label={t('item.unread', { count: ticket.unreadMessages })}
                  sx={{
                    minWidth: 20,
                    height: 20,
                    px: 0.75,
                    borderRadius: 10,
                    fontSize: 12,
                    lineHeight: '20px',
                    textAlign: 'center',
                    fontWeight: 600,
                    bgcolor: 'success.dark',
                    color: 'success.contrastText',
                  }}
                >
                  {ticket.unreadMessages > 999 ? '999+' : ticket.unreadMessages}
                </Box>
              )}
            </Box>
            <Box
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}
            >
              {ticket.queue && (
                <Chip
                  size="small"
                  label={ticket.queue.name}
                  sx={{ bgcolor: color, color: '#fff', height: 20, fontSize: 11 }}
                />
              )}
              {ticket.user && ticket.status !== 'pending' && (
                <Chip
                  size="small"
                  variant="outlined"
                  label={ticket.user.name}
                  sx={{ height: 20, fontSize: 11 }}
                />
              )}
              {ticket.tags.map((tag) => (
                <Chip
                  key={tag.id}
                  size="small"
                  label={tag.name}
                  sx={{ bgcolor: tag.color, color: '#fff', height: 20, fontSize: 11 }}
                />
              ))}
            </Box>
          </Box>
        </ListItemButton>
      )}
      {pending && (
        <Button
          size="small"
          variant="contained"
          color="success"
          disabled={accepting}
          onClick={() => onAccept(ticket)}
          aria-label={t('item.acceptNamed', { name })}
          sx={{ alignSelf: 'center', py: 0, minHeight: 28, mr: canSpy ? 0 : 1, flexShrink: 0 }}
        >
          {t('actions.accept')}
        </Button>
      )}
      {canSpy && (
        <>
          <IconButton
            size="small"
            aria-label={t('item.menu', { name })}
            aria-haspopup="menu"
            onClick={(event) => setMenu(event.currentTarget)}
            sx={{ alignSelf: 'center' }}
          >
            <MoreVertIcon fontSize="small" />
          </IconButton>
          <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
            <MenuItem
              onClick={() => {
                setMenu(null);
                onSpy(ticket);
              }}
            >
              {t('spy.open')}
            </MenuItem>
          </Menu>
        </>
      )}
    </Box>
  );
});
