import { ACK, type Message } from '@atendi/shared';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import BlockIcon from '@mui/icons-material/Block';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../app/format';
import { useRetryMessage } from '../api';
import { formatBody } from '../format';
import { BODY_IS_DATA, MessageMedia } from './MessageMedia';

/** A send that failed: below every tick (ACK.failed). */
export const sendFailed = (message: Pick<Message, 'ack'>) => message.ack <= ACK.failed;

/** The spec's ticks: 1 waiting, 2 sent, 3 delivered, 4 read and 5 played (both blue). */
export function Ticks({ ack }: { ack: number }) {
  const { t } = useTranslation('messages');
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  if (ack <= ACK.failed) {
    return <ErrorOutlineIcon sx={sx} color="error" titleAccess={t('ack.failed')} />;
  }
  if (ack === ACK.pending) return <AccessTimeIcon sx={sx} titleAccess={t('ack.waiting')} />;
  if (ack === ACK.sent) return <DoneIcon sx={sx} titleAccess={t('ack.sent')} />;
  if (ack === ACK.delivered) return <DoneAllIcon sx={sx} titleAccess={t('ack.delivered')} />;
  return <DoneAllIcon sx={{ ...sx, color: '#34b7f1' }} titleAccess={t('ack.read')} />;
}

function Quoted({ quoted }: { quoted: NonNullable<Message['quotedMsg']> }) {
  const { t } = useTranslation('messages');
  return (
    <Box
      data-testid="quoted-message"
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'success.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        maxHeight: 80,
        overflow: 'hidden',
      }}
    >
      <Typography variant="caption" color="text.secondary" component="div">
        {quoted.fromMe ? t('you') : t('contact')}
      </Typography>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {quoted.body ? formatBody(quoted.body) : t(`kinds.${quoted.mediaType}`)}
      </Typography>
    </Box>
  );
}

interface MessageBubbleProps {
  message: Message;
  showAuthor: boolean;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  onDelete?: (message: Message) => void;
}

export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message, showAuthor, readOnly, onReply, onDelete } = props;
  const { t } = useTranslation('messages');
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const retry = useRetryMessage();
  const mine = message.fromMe;
  const showBody = message.body && !BODY_IS_DATA.has(message.mediaType);
  return (
    <Box
      sx={{
        display: 'flex',
        justifyContent: mine ? 'flex-end' : 'flex-start',
        px: { xs: 1, sm: 2 },
        py: 0.25,
      }}
    >
      <Box
        data-testid="message"
        sx={{
          position: 'relative',
          maxWidth: { xs: '88%', md: '70%' },
          minWidth: 90,
          bgcolor: mine
            ? (theme) => (theme.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6')
            : 'background.paper',
          color: 'text.primary',
          borderRadius: 2,
          boxShadow: 1,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          '&:hover .message-menu, & .message-menu:focus-visible': { opacity: 1 },
        }}
      >
        {!readOnly && (
          <IconButton
            className="message-menu"
            size="small"
            aria-label={t('menu.label')}
            aria-haspopup="menu"
            onClick={(event) => setMenu(event.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: { xs: 1, md: 0.4 }, p: 0.25 }}
          >
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        {showAuthor && message.contact && (
          <Typography variant="caption" color="primary" component="div" sx={{ fontWeight: 600 }}>
            {message.contact.name}
          </Typography>
        )}
        {message.quotedMsg && <Quoted quoted={message.quotedMsg} />}
        {message.isDeleted && (
          <Typography
            variant="caption"
            color="text.secondary"
            component="div"
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontStyle: 'italic' }}
          >
            <BlockIcon sx={{ fontSize: 14 }} />
            {t('deleted')}
          </Typography>
        )}
        {message.mediaType !== 'chat' && <MessageMedia message={message} />}
        {showBody && (
          <Typography
            variant="body2"
            component="div"
            sx={{
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              pr: readOnly ? 0 : 2.5,
              color: message.isDeleted ? 'text.secondary' : undefined,
              '& a': { color: 'primary.main' },
            }}
          >
            {formatBody(message.body)}
          </Typography>
        )}
        {mine && sendFailed(message) && message.sendState === 'unknown' && !message.isDeleted && (
          <Typography variant="caption" color="warning.main" component="div" role="note">
            {t('sendUnknown')}
          </Typography>
        )}
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 0.5,
            mt: 0.25,
          }}
        >
          {message.isEdited && <span>{t('edited')}</span>}
          {formatTime(message.createdAt)}
          {mine && <Ticks ack={message.ack} />}
        </Typography>
        {!readOnly && (
          <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
            <MenuItem
              onClick={() => {
                setMenu(null);
                onReply?.(message);
              }}
            >
              {t('menu.reply')}
            </MenuItem>
            {mine && sendFailed(message) && !message.isDeleted && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  retry.mutate(message.id);
                }}
              >
                {t('menu.retry')}
              </MenuItem>
            )}
            {mine && !message.isDeleted && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  onDelete?.(message);
                }}
              >
                {t('menu.delete')}
              </MenuItem>
            )}
          </Menu>
        )}
      </Box>
    </Box>
  );
});
