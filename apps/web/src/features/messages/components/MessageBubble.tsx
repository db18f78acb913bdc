import { ACK, type Message } from '@atendi/shared';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import BlockIcon from '@mui/icons-material/Block';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ShortcutIcon from '@mui/icons-material/Shortcut';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { whatsappText } from '../../../app/whatsappText';
import { useRetryMessage } from '../api';
import { messageLabel, quoteText } from '../format';
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
        {quoteText(quoted, t)}
      </Typography>
    </Box>
  );
}

/** A line in small italics above the text: deleted, forwarded. */
function Note({ icon: Icon, text }: { icon: typeof BlockIcon; text: string }) {
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      component="div"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontStyle: 'italic' }}
    >
      <Icon sx={{ fontSize: 14 }} />
      {text}
    </Typography>
  );
}

interface MessageBubbleProps {
  message: Message;
  showAuthor: boolean;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  onDelete?: (message: Message) => void;
  /** 'Encaminhar' in the menu: starts choosing the messages to forward, this one chosen. */
  onForward?: (message: Message) => void;
  /** While messages are chosen to forward: whether this one is (undefined: not choosing). */
  selected?: boolean;
  onToggleSelect?: (message: Message) => void;
}

/** What can be forwarded: anything still there, but a missed call. */
export const canForward = (message: Pick<Message, 'isDeleted' | 'mediaType'>) =>
  !message.isDeleted && message.mediaType !== 'call_log';

export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message, showAuthor, readOnly, onReply, onDelete, onForward } = props;
  const { selected, onToggleSelect } = props;
  const selecting = selected !== undefined;
  const { t } = useTranslation('messages');
  const clock = useClock();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const retry = useRetryMessage();
  const mine = message.fromMe;
  const showBody = message.body && !BODY_IS_DATA.has(message.mediaType);
  return (
    <Box
      onClick={selecting && canForward(message) ? () => onToggleSelect?.(message) : undefined}
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: mine ? 'flex-end' : 'flex-start',
        px: { xs: 1, sm: 2 },
        py: 0.25,
        cursor: selecting ? 'pointer' : undefined,
        bgcolor: selected ? 'action.selected' : undefined,
      }}
    >
      {selecting && (
        <Checkbox
          size="small"
          checked={selected}
          disabled={!canForward(message)}
          onClick={(event) => event.stopPropagation()}
          onChange={() => onToggleSelect?.(message)}
          slotProps={{
            input: { 'aria-label': t('forward.select', { text: messageLabel(message, t) }) },
          }}
          sx={{ mr: 1 }}
        />
      )}
      <Box
        data-testid="message"
        sx={{
          position: 'relative',
          // beside its checkbox, an agent's message still keeps to the right
          ml: selecting && mine ? 'auto' : undefined,
          maxWidth: { xs: '88%', md: '70%' },
          minWidth: 90,
          bgcolor: mine
            ? (theme) => (theme.palette.mode === 'dark' ? '#005c4b' : '#dcf8c6')
            : 'background.paper',
          color: 'text.primary',
          borderRadius: 2,
          boxShadow: 1,
          // the menu button sits in the top right corner: what the bubble says keeps clear of it
          pl: 1.25,
          pr: readOnly ? 1.25 : 3.75,
          pt: 0.75,
          pb: 0.5,
          '&:hover .message-menu, & .message-menu:focus-visible': { opacity: 1 },
        }}
      >
        {!readOnly && !selecting && (
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
        {message.isForwarded && <Note icon={ShortcutIcon} text={t('forwarded')} />}
        {message.quotedMsg && <Quoted quoted={message.quotedMsg} />}
        {message.isDeleted && <Note icon={BlockIcon} text={t('deleted')} />}
        {message.mediaType !== 'chat' && <MessageMedia message={message} />}
        {showBody && (
          <Typography
            variant="body2"
            component="div"
            sx={{
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              color: message.isDeleted ? 'text.secondary' : undefined,
              '& a': { color: 'primary.main' },
            }}
          >
            {whatsappText(message.body)}
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
            // below the menu button: the time takes the bubble's whole width
            mr: readOnly ? 0 : -2.5,
          }}
        >
          {message.isEdited && <span>{t('edited')}</span>}
          {clock.time(message.createdAt)}
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
            {onForward && canForward(message) && (
              <MenuItem
                onClick={() => {
                  setMenu(null);
                  onForward(message);
                }}
              >
                {t('menu.forward')}
              </MenuItem>
            )}
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
