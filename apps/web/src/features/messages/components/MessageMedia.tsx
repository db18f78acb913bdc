import { type Message, readVcard } from '@atendi/shared';
import DescriptionIcon from '@mui/icons-material/Description';
import LocationOnIcon from '@mui/icons-material/LocationOn';
import PersonIcon from '@mui/icons-material/Person';
import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaHref } from '../api';

const COORDINATES = /(-?\d{1,3}(?:\.\d+)?)\s*(?:,|%2C)\s*(-?\d{1,3}(?:\.\d+)?)/i;

/**
 * What a location message's body tells: the map link, then the place's name after a '|', as
 * the server stores them (`https://maps.google.com/maps?q=lat%2Clng...|Name`); the coordinates
 * are read from the link (or a bare 'lat,lng'), written with six decimals as the simulator does.
 */
export function readLocation(body: string): {
  href: string | null;
  name: string;
  coordinates: string | null;
} {
  const bar = body.indexOf('|');
  const place = bar < 0 ? body : body.slice(0, bar);
  const name = bar < 0 ? '' : body.slice(bar + 1).trim();
  const match = COORDINATES.exec(place);
  const coordinates = match
    ? `${Number(match[1]).toFixed(6)}, ${Number(match[2]).toFixed(6)}`
    : null;
  return { href: locationHref(place), name, coordinates };
}

/** 'lat,lng' or a maps address in the body of a location message. */
export function locationHref(body: string): string | null {
  const url = body.match(/https?:\/\/\S+/)?.[0];
  if (
    url &&
    /^https:\/\/(www\.)?(google\.[a-z.]+\/maps|maps\.google\.[a-z.]+|maps\.app\.goo\.gl)/i.test(url)
  ) {
    return url;
  }
  const coords = body.match(/(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)/);
  if (coords) return `https://maps.google.com/maps?q=${coords[1]}%2C${coords[2]}`;
  return null;
}

/**
 * The file's address asking the server to save it under its name: a link's download attribute is
 * ignored for another site's file (the API may be on another address than the app).
 */
export function downloadHref(src: string, name: string): string {
  return `${src}${src.includes('?') ? '&' : '?'}download=${encodeURIComponent(name)}`;
}

function ImageMedia({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation('messages');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Box
        component="button"
        type="button"
        onClick={() => setOpen(true)}
        aria-label={t('media.openImage')}
        sx={{ p: 0, border: 0, bgcolor: 'transparent', cursor: 'zoom-in', display: 'block' }}
      >
        <Box
          component="img"
          src={src}
          alt={name}
          loading="lazy"
          sx={{
            display: 'block',
            maxWidth: '100%',
            width: 240,
            height: 180,
            objectFit: 'cover',
            borderRadius: 1,
          }}
        />
      </Box>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        maxWidth="lg"
        slotProps={{ paper: { 'aria-label': t('media.image') } }}
      >
        <DialogContent sx={{ p: 1 }}>
          <Box
            component="img"
            src={src}
            alt={name}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '85vh' }}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The viewer for each kind of message; the caption (body) is shown by the bubble. */
export function MessageMedia({ message }: { message: Message }) {
  const { t } = useTranslation('messages');
  const src = mediaHref(message.mediaUrl);
  const name = message.mediaName ?? t('media.file');
  switch (message.mediaType) {
    case 'image':
      return src ? <ImageMedia src={src} name={name} /> : null;
    case 'audio':
      return src ? (
        // biome-ignore lint/a11y/useMediaCaption: voice notes have no captions
        <audio
          controls
          src={src}
          preload="metadata"
          aria-label={t('media.audio')}
          style={{ maxWidth: '100%' }}
        />
      ) : null;
    case 'video':
      return src ? (
        // biome-ignore lint/a11y/useMediaCaption: the contacts' videos come without captions
        <video
          controls
          src={src}
          preload="metadata"
          aria-label={t('media.video')}
          style={{ maxWidth: '100%', width: 260, borderRadius: 4 }}
        />
      ) : null;
    case 'application':
      return src ? (
        <Button
          component="a"
          href={downloadHref(src, name)}
          download={name}
          startIcon={<DescriptionIcon />}
          variant="outlined"
          size="small"
          sx={{ textTransform: 'none', maxWidth: '100%', justifyContent: 'flex-start' }}
        >
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {t('media.download', { name })}
          </Box>
        </Button>
      ) : null;
    case 'locationMessage': {
      const { href, name, coordinates } = readLocation(message.body);
      return (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <LocationOnIcon color="error" aria-hidden />
          <Box sx={{ minWidth: 0 }}>
            {name && (
              <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                {name}
              </Typography>
            )}
            {coordinates && (
              <Typography variant="caption" component="div">
                {coordinates}
              </Typography>
            )}
            <Link
              variant="body2"
              href={href ?? undefined}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('media.location')}
            </Link>
          </Box>
        </Box>
      );
    }
    case 'vcard': {
      const card = readVcard(message.body);
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <PersonIcon />
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {card.name || t('media.contact')}
            </Typography>
            <Typography variant="caption">{card.numbers[0]}</Typography>
          </Box>
        </Box>
      );
    }
    case 'call_log':
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <PhoneMissedIcon color="error" fontSize="small" />
          <Typography variant="body2">{t('media.call')}</Typography>
        </Box>
      );
    default:
      return null;
  }
}

/** Kinds whose body is data for the viewer, not a caption to show as text. */
export const BODY_IS_DATA = new Set(['vcard', 'locationMessage', 'call_log']);
