import type { Ticket } from '@atendi/shared';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../app/api';
import { PageLoader } from '../../../app/components/PageLoader';
import { errorMessage } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { useTicket } from '../api';
import { Conversation } from '../components/Conversation';
import { TicketsManager } from '../components/TicketsManager';
import { useTicketsRealtime } from '../realtime';

/** Two panes from this width; below it the list and the conversation take turns. */
const TWO_PANES = '(min-width:900px)';

export function TicketsPage() {
  const { t } = useTranslation('tickets');
  const { uuid } = useParams();
  const navigate = useNavigate();
  const wide = useMediaQuery(TWO_PANES, { noSsr: true });
  const ticket = useTicket(uuid);
  const current = uuid ? ticket.data : undefined;

  const leave = useCallback(() => void navigate('/tickets'), [navigate]);
  const open = useCallback((next: Ticket) => void navigate(`/tickets/${next.uuid}`), [navigate]);

  useTicketsRealtime(current, leave);

  // a ticket this user may not read: say so and go back to the list (spec core 5)
  const { error } = ticket;
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiError && error.sessionEnded) return;
    if (error instanceof ApiError && error.status === 403) toast.error(t('accessDenied'));
    else toast.error(errorMessage(error));
    void navigate('/tickets', { replace: true });
  }, [error, navigate, t]);

  const conversation = uuid ? (
    current ? (
      <Conversation ticket={current} onBack={wide ? undefined : leave} onLeave={leave} />
    ) : (
      <Paper variant="outlined" sx={{ height: '100%' }}>
        <PageLoader />
      </Paper>
    )
  ) : (
    <Paper
      variant="outlined"
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        p: 3,
        color: 'text.secondary',
      }}
    >
      <ForumOutlinedIcon sx={{ fontSize: 64 }} />
      <Typography>{t('selectTicket')}</Typography>
    </Paper>
  );

  return (
    <Box
      sx={{
        flex: 1,
        minHeight: 0,
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: wide ? 'minmax(320px, 400px) minmax(0, 1fr)' : 'minmax(0, 1fr)',
        // the page owns its height: the lists and the conversation scroll inside it
        height: { xs: 'calc(100dvh - 56px - 24px)', sm: 'calc(100dvh - 64px - 48px)' },
      }}
    >
      <Typography
        variant="h5"
        component="h1"
        sx={{
          position: 'absolute',
          width: '1px',
          height: '1px',
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
        }}
      >
        {t('title')}
      </Typography>
      {(wide || !uuid) && (
        <Box sx={{ minHeight: 0, minWidth: 0 }}>
          <TicketsManager selectedId={current?.id} onOpen={open} />
        </Box>
      )}
      {(wide || uuid) && <Box sx={{ minHeight: 0, minWidth: 0 }}>{conversation}</Box>}
    </Box>
  );
}
