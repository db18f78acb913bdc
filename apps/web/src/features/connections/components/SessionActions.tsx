import type { ConnectionStatus } from '@atendi/shared';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { SessionAction } from '../api';

interface SessionActionsProps {
  status: ConnectionStatus | string | undefined;
  /** Disconnecting is for admins only (spec core 4). */
  canDisconnect: boolean;
  busy: boolean;
  onShowQr: () => void;
  onAction: (action: SessionAction) => void;
}

/** What the person can do about the session in each status (spec core 4, Connection). */
export function SessionActions(props: SessionActionsProps) {
  const { status, canDisconnect, busy, onShowQr, onAction } = props;
  const { t } = useTranslation('connections');
  const small = { size: 'small', variant: 'outlined', disabled: busy } as const;

  switch (status) {
    case 'qrcode':
      return (
        <Button {...small} variant="contained" onClick={onShowQr}>
          {t('actions.qrcode')}
        </Button>
      );
    case 'DISCONNECTED':
      return (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button {...small} onClick={() => onAction('start')}>
            {t('actions.tryAgain')}
          </Button>
          <Button {...small} color="secondary" onClick={() => onAction('newQr')}>
            {t('actions.newQr')}
          </Button>
        </Stack>
      );
    case 'OPENING':
      return (
        <Button
          size="small"
          variant="outlined"
          disabled
          startIcon={<CircularProgress size={14} color="inherit" aria-hidden />}
        >
          {t('actions.connecting')}
        </Button>
      );
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return canDisconnect ? (
        <Button {...small} color="error" onClick={() => onAction('disconnect')}>
          {t('actions.disconnect')}
        </Button>
      ) : null;
    default:
      return null;
  }
}
