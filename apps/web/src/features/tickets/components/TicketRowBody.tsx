import type { Ticket } from '@atendi/shared';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { type Clock, dayInZone, useClock } from '../../../app/clock';
import { whatsappText } from '../../../app/whatsappText';
import { mediaHref } from '../../messages/api';

/** Phones show at most 10 characters of a contact's name (spec core 9). */
export const NAME_LIMIT_ON_PHONE = 10;

export function shortName(name: string, phone: boolean): string {
  return phone && name.length > NAME_LIMIT_ON_PHONE
    ? `${name.slice(0, NAME_LIMIT_ON_PHONE)}…`
    : name;
}

/** Today's tickets show the time, older ones the date (both on the company's clock). */
export function when(value: string, clock: Clock, now = new Date()): string {
  const day = dayInZone(value, clock.zone);
  if (!day) return '';
  return day === dayInZone(now, clock.zone) ? clock.time(value) : clock.date(value);
}

const smallChip = { height: 20, fontSize: 11 } as const;

/**
 * What a ticket row says: the contact's picture and name, when it last moved, its last message,
 * the unread count, and its queue, agent and tags.
 */
export function TicketRowBody({ ticket, phone }: { ticket: Ticket; phone: boolean }) {
  const clock = useClock();
  const { t } = useTranslation('tickets');
  const name = ticket.contact?.name ?? '';
  const color = ticket.queue?.color ?? '#9e9e9e';
  return (
    <>
      <Avatar src={mediaHref(ticket.contact?.profilePicUrl ?? null)} alt={name} sx={{ mt: 0.5 }}>
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography noWrap sx={{ flex: 1, fontWeight: 600 }} title={name}>
            {shortName(name, phone)}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
            {when(ticket.updatedAt, clock)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1 }}>
            {whatsappText(ticket.lastMessage)}
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
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}>
          {ticket.queue && (
            <Chip
              size="small"
              label={ticket.queue.name}
              sx={{ ...smallChip, bgcolor: color, color: '#fff' }}
            />
          )}
          {ticket.user && ticket.status !== 'pending' && (
            <Chip size="small" variant="outlined" label={ticket.user.name} sx={smallChip} />
          )}
          {ticket.tags.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tag.name}
              sx={{ ...smallChip, bgcolor: tag.color, color: '#fff' }}
            />
          ))}
        </Box>
      </Box>
    </>
  );
}
