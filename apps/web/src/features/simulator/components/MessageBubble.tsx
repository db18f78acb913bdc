import { readVcard } from '@atendi/shared';
import BlockIcon from '@mui/icons-material/Block';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import DescriptionIcon from '@mui/icons-material/Description';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import PlaceIcon from '@mui/icons-material/Place';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../app/a11y';
import { apiBaseUrl } from '../../../app/api';
import { useClock } from '../../../app/clock';
import { whatsappText } from '../../../app/whatsappText';
import { EDITABLE_KINDS, type SimulatorMessage } from '../api';
import { Ticks } from './Ticks';

/** Media paths are the API's own signed paths; anything else is not loaded. */
function mediaHref(mediaUrl: string | null): string | null {
  if (!mediaUrl) return null;
  if (mediaUrl.startsWith('/')) return `${apiBaseUrl()}${mediaUrl}`;
  return /^https?:\/\//i.test(mediaUrl) ? mediaUrl : null;
}

/** Text is always a text node: a body like `<img onerror=...>` shows as the characters it is. */
function Body({ text }: { text: string }) {
  if (!text) return null;
  return (
    <Typography
      component="p"
      variant="body2"
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', m: 0 }}
      data-testid="message-body"
    >
      {whatsappText(text)}
    </Typography>
  );
}

function Content({ message }: { message: SimulatorMessage }) {
  const { t } = useTranslation('simulator');
  const href = mediaHref(message.mediaUrl);
  const fileName =
    message.fileName ?? t(`chat.${message.kind}`, { defaultValue: t('chat.document') });

  if (message.isDeleted) {
    return (
      <Typography
        variant="body2"
        sx={{
          fontStyle: 'italic',
          color: 'text.secondary',
          display: 'flex',
          gap: 0.5,
          alignItems: 'center',
        }}
      >
        <BlockIcon fontSize="inherit" aria-hidden />
        {t('chat.deleted')}
      </Typography>
    );
  }

  let media: ReactNode = null;
  switch (message.kind) {
    case 'image':
      media = href && (
        <Box
          component="img"
          src={href}
          alt={message.body || fileName}
          sx={{ display: 'block', maxWidth: '100%', width: 260, borderRadius: 1, mb: 0.5 }}
        />
      );
      break;
    case 'audio':
      media = href && (
        // biome-ignore lint/a11y/useMediaCaption: a voice message has no caption track
        <audio controls src={href} aria-label={fileName} style={{ maxWidth: '100%' }} />
      );
      break;
    case 'video':
      media = href && (
        // biome-ignore lint/a11y/useMediaCaption: videos sent over WhatsApp carry no captions
        <video
          controls
          src={href}
          aria-label={fileName}
          style={{ maxWidth: '100%', width: 260, borderRadius: 4 }}
        />
      );
      break;
    case 'document':
      media = (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
          <DescriptionIcon color="action" aria-hidden />
          {href ? (
            <Link
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              download={message.fileName ?? true}
              aria-label={t('chat.openFile', { name: fileName })}
            >
              {fileName}
            </Link>
          ) : (
            <span>{fileName}</span>
          )}
        </Box>
      );
      break;
    case 'location': {
      const location = message.location;
      media = location && (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 0.5 }}>
          <PlaceIcon color="error" aria-hidden />
          <Box>
            {location.name && (
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {location.name}
              </Typography>
            )}
            <Typography variant="caption" component="div">
              {location.latitude.toFixed(6)}, {location.longitude.toFixed(6)}
            </Typography>
            <Link
              variant="caption"
              href={`https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=16/${location.latitude}/${location.longitude}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('chat.openMap')}
            </Link>
          </Box>
        </Box>
      );
      // the body repeats the place's name
      if (location?.name && message.body === location.name) return media;
      break;
    }
    case 'contact': {
      const card = readVcard(message.vcard ?? '');
      return (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
          aria-label={t('chat.contactCard')}
          role="group"
        >
          <ContactPhoneIcon color="action" aria-hidden />
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {card.name || message.body}
            </Typography>
            {card.numbers.map((number) => (
              <Typography key={number} variant="caption" component="div">
                {number}
              </Typography>
            ))}
          </Box>
        </Box>
      );
    }
    case 'call_log':
      return (
        <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <PhoneMissedIcon color="error" fontSize="small" aria-hidden />
          {message.body || t('chat.missedCallBody')}
        </Typography>
      );
    default:
      break;
  }
  return (
    <>
      {media}
      <Body text={message.body} />
    </>
  );
}

/** The message replied to, as a short strip above the reply. */
function Quoted({ quoted }: { quoted: SimulatorMessage }) {
  const { t } = useTranslation('simulator');
  const who = quoted.direction === 'inbound' ? t('chat.phone') : t('chat.company');
  const text = quoted.isDeleted
    ? t('chat.deleted')
    : quoted.body || quoted.fileName || t(`chat.${quoted.kind}`, { defaultValue: '' });
  return (
    <Box
      role="note"
      aria-label={t('chat.quoted')}
      sx={{
        borderLeft: 4,
        borderColor: quoted.direction === 'inbound' ? '#06cf9c' : '#53bdeb',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
      }}
    >
      <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
        {who}
      </Typography>
      <Typography variant="caption" sx={{ display: 'block', overflowWrap: 'anywhere' }} noWrap>
        {whatsappText(text)}
      </Typography>
    </Box>
  );
}

export interface MessageActions {
  onReply(message: SimulatorMessage): void;
  onEdit(message: SimulatorMessage): void;
  onDelete(message: SimulatorMessage): void;
}

/** Reply to any message; edit or delete for everyone the phone's own. */
function ActionsMenu({ message, actions }: { message: SimulatorMessage; actions: MessageActions }) {
  const { t } = useTranslation('simulator');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const own = message.direction === 'inbound';
  const close = () => setAnchor(null);
  const choose = (action: (message: SimulatorMessage) => void) => () => {
    close();
    action(message);
  };
  return (
    <>
      <IconButton
        size="small"
        aria-label={t('chat.actions')}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ p: 0, ml: 0.5, opacity: 0.6 }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        <MenuItem onClick={choose(actions.onReply)}>{t('chat.reply')}</MenuItem>
        {own && EDITABLE_KINDS.includes(message.kind) && (
          <MenuItem onClick={choose(actions.onEdit)}>{t('chat.edit')}</MenuItem>
        )}
        {own && <MenuItem onClick={choose(actions.onDelete)}>{t('chat.deleteForAll')}</MenuItem>}
      </Menu>
    </>
  );
}

/**
 * One message as the phone shows it: the phone's own on the right, the company's on the left
 * with their ticks.
 */
export function MessageBubble({
  message,
  quoted,
  actions,
}: {
  message: SimulatorMessage;
  quoted?: SimulatorMessage;
  actions?: MessageActions;
}) {
  const { t } = useTranslation('simulator');
  const clock = useClock();
  const own = message.direction === 'inbound';
  return (
    <Box
      component="li"
      data-direction={message.direction}
      sx={{
        display: 'flex',
        justifyContent: own ? 'flex-end' : 'flex-start',
        listStyle: 'none',
        px: 1.5,
        py: 0.25,
      }}
    >
      <Box
        sx={(theme) => ({
          maxWidth: 'min(80%, 420px)',
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: 2,
          borderTopRightRadius: own ? 0 : undefined,
          borderTopLeftRadius: own ? undefined : 0,
          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
          bgcolor: own
            ? theme.palette.mode === 'dark'
              ? '#005c4b'
              : '#d9fdd3'
            : theme.palette.mode === 'dark'
              ? '#202c33'
              : '#ffffff',
          color: theme.palette.mode === 'dark' ? '#e9edef' : '#111b21',
        })}
      >
        <Box component="span" sx={visuallyHidden}>
          {own ? t('chat.phone') : t('chat.company')}:{' '}
        </Box>
        {quoted && !message.isDeleted && <Quoted quoted={quoted} />}
        <Content message={message} />
        <Box
          sx={{
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 0.5,
            mt: 0.25,
          }}
        >
          {message.isEdited && !message.isDeleted && (
            <Typography variant="caption" sx={{ fontSize: 11, opacity: 0.7, fontStyle: 'italic' }}>
              {t('chat.edited')}
            </Typography>
          )}
          <Typography
            component="time"
            dateTime={message.createdAt}
            variant="caption"
            sx={{ fontSize: 11, opacity: 0.7 }}
          >
            {clock.time(message.createdAt)}
          </Typography>
          <Ticks message={message} />
          {actions && !message.isDeleted && <ActionsMenu message={message} actions={actions} />}
        </Box>
      </Box>
    </Box>
  );
}
