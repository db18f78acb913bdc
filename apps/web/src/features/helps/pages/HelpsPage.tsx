import type { Help } from '@atendi/shared';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../app/components/PageHeader';
import { PageLoader } from '../../../app/components/PageLoader';
import { useHelps } from '../api';

/** The video host's player for a video code. */
export const videoUrl = (code: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(code)}`;
export const thumbnailUrl = (code: string) =>
  `https://img.youtube.com/vi/${encodeURIComponent(code)}/mqdefault.jpg`;

/** The grid of help videos: a card each; a card opens the player, which Escape closes. */
export function HelpsPage() {
  const { t } = useTranslation('helps');
  const helps = useHelps();
  const [playing, setPlaying] = useState<Help | null>(null);
  const titleId = useId();
  const count = helps.data?.length ?? 0;

  return (
    <>
      <PageHeader title={`${t('title')} (${count})`} />
      {helps.isPending ? (
        <PageLoader />
      ) : helps.isError ? (
        <Typography color="error">{t('common:errors.listFailed')}</Typography>
      ) : count === 0 ? (
        <Typography color="text.secondary">{t('empty')}</Typography>
      ) : (
        <Box
          component="ul"
          aria-label={t('title')}
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
          }}
        >
          {helps.data.map((help) => (
            <li key={help.id}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardActionArea
                  onClick={() => setPlaying(help)}
                  disabled={!help.video}
                  aria-label={t('play', { title: help.title })}
                  sx={{ height: '100%', alignItems: 'stretch' }}
                >
                  <Box
                    sx={{
                      aspectRatio: '16 / 9',
                      bgcolor: 'grey.900',
                      display: 'grid',
                      placeItems: 'center',
                      backgroundImage: help.video ? `url(${thumbnailUrl(help.video)})` : undefined,
                      backgroundSize: 'cover',
                      backgroundPosition: 'center',
                    }}
                  >
                    <PlayCircleOutlineIcon sx={{ fontSize: 56, color: 'common.white' }} />
                  </Box>
                  <CardContent>
                    <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                      {help.title}
                    </Typography>
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ wordBreak: 'break-word' }}
                    >
                      {help.description}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </li>
          ))}
        </Box>
      )}
      <Dialog
        open={playing !== null}
        onClose={() => setPlaying(null)}
        aria-labelledby={titleId}
        fullWidth
        maxWidth="md"
      >
        <DialogTitle id={titleId}>{playing?.title}</DialogTitle>
        <DialogContent>
          {playing && (
            <Box
              component="iframe"
              src={videoUrl(playing.video)}
              title={playing.title}
              allow="accelerometer; autoplay; encrypted-media; picture-in-picture"
              allowFullScreen
              sx={{ width: '100%', aspectRatio: '16 / 9', border: 0 }}
            />
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
