import type { Ticket } from '@atendi/shared';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemButton from '@mui/material/ListItemButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TicketRowBody } from './TicketRowBody';

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
          <TicketRowBody ticket={ticket} phone={phone} />
        </Box>
      ) : (
        <ListItemButton
          selected={selected}
          onClick={() => onOpen(ticket)}
          aria-current={selected ? 'page' : undefined}
          sx={{ alignItems: 'flex-start', gap: 1.5, py: 1, pr: 1, minWidth: 0 }}
        >
          <TicketRowBody ticket={ticket} phone={phone} />
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
