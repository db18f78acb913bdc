import type { KanbanCard as Card } from '@atendi/shared';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { whatsappText } from '../../../app/whatsappText';

export interface CardHandle {
  ref?: (element: HTMLElement | null) => void;
  props?: Record<string, unknown>;
}

/**
 * A ticket on the board: number, contact name and number, last message and 'Ver Ticket'. The
 * handle is the keyboard's way to move it (Space picks it up, arrows choose the lane, Space
 * drops it); a pointer drags the whole card.
 */
export function KanbanCard(props: {
  ticket: Card;
  handle?: CardHandle;
  cardProps?: Record<string, unknown>;
  style?: CSSProperties;
  lifted?: boolean;
  children?: ReactNode;
}) {
  const { ticket, handle, cardProps, style, lifted } = props;
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const name = ticket.contact.name || ticket.contact.number;
  return (
    <Paper
      variant={lifted ? 'elevation' : 'outlined'}
      elevation={lifted ? 8 : 0}
      component="article"
      aria-label={t('card.label', { id: ticket.id, name })}
      style={style}
      {...cardProps}
      sx={{ p: 1.25, display: 'flex', flexDirection: 'column', gap: 0.5, cursor: 'grab' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography variant="subtitle2" component="h3" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {t('card.number', { id: ticket.id })} · {name}
        </Typography>
        <IconButton
          size="small"
          ref={handle?.ref}
          {...handle?.props}
          aria-label={t('card.move', { id: ticket.id, name })}
          sx={{ cursor: 'grab' }}
        >
          <DragIndicatorIcon fontSize="small" />
        </IconButton>
      </Box>
      <Typography variant="body2" color="text.secondary" noWrap>
        {ticket.contact.number}
      </Typography>
      <Typography
        variant="body2"
        sx={{
          display: '-webkit-box',
          WebkitLineClamp: 2,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
          wordBreak: 'break-word',
          minHeight: '2.5em',
        }}
      >
        {whatsappText(ticket.lastMessage)}
      </Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          size="small"
          variant="outlined"
          onClick={() => void navigate(`/tickets/${ticket.uuid}`)}
          aria-label={t('card.openLabel', { id: ticket.id })}
        >
          {t('card.open')}
        </Button>
      </Box>
    </Paper>
  );
}
