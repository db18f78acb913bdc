import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DialogFooter } from '../../../app/components/DialogFooter';
import { toast } from '../../../app/toast';
import { useConnections } from '../api';
import { QrCodeImage } from './QrCodeImage';

interface QrCodeDialogProps {
  connectionId: number;
  onClose: () => void;
}

/**
 * The pairing dialog. It reads the connection from the list the realtime events keep current,
 * so a new QR replaces the old one, and it closes by itself once the QR is gone (paired).
 */
export function QrCodeDialog({ connectionId, onClose }: QrCodeDialogProps) {
  const { t } = useTranslation('connections');
  const titleId = useId();
  const codeId = useId();
  const { data } = useConnections();
  const connection = data?.find((item) => item.id === connectionId);
  const qrcode = connection?.qrcode ?? '';
  const shown = useRef(false);
  if (qrcode) shown.current = true;
  const done =
    data !== undefined &&
    (!connection || (!qrcode && (shown.current || connection.status !== 'qrcode')));

  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(qrcode);
      toast.success(t('qr.copied'));
    } catch {
      // no clipboard (plain http): the code is on screen to select by hand
    }
  };

  const simulator = connection?.provider === 'simulator';

  return (
    <Dialog open={!done} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t('qr.title')}</DialogTitle>
      <DialogContent
        dividers
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}
      >
        {connection && (
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
            {connection.name}
          </Typography>
        )}
        {qrcode ? (
          <QrCodeImage value={qrcode} label={t('qr.image', { name: connection?.name ?? '' })} />
        ) : (
          <Box
            role="status"
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              minHeight: 256,
              color: 'text.secondary',
            }}
          >
            <CircularProgress size={20} aria-hidden />
            {t('qr.waiting')}
          </Box>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
          {simulator ? t('qr.simulatorHint') : t('qr.instructions')}
        </Typography>
        {simulator && qrcode && (
          <Box sx={{ width: '100%', display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography variant="caption" component="label" htmlFor={codeId} sx={{ flexShrink: 0 }}>
              {t('qr.code')}
            </Typography>
            <Box
              component="output"
              id={codeId}
              data-testid="qr-code-text"
              sx={{
                flex: 1,
                minWidth: 0,
                fontFamily: 'monospace',
                fontSize: 12,
                overflowWrap: 'anywhere',
                userSelect: 'all',
                bgcolor: 'action.hover',
                px: 1,
                py: 0.5,
                borderRadius: 1,
              }}
            >
              {qrcode}
            </Box>
            <Tooltip title={t('qr.copy')}>
              <IconButton size="small" aria-label={t('qr.copy')} onClick={copy}>
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        )}
      </DialogContent>
      <DialogFooter
        onCancel={onClose}
        start={
          simulator && (
            <Link
              component={RouterLink}
              to={`/simulator?connection=${connectionId}`}
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            >
              <PhoneAndroidIcon fontSize="inherit" aria-hidden />
              {t('qr.openSimulator')}
            </Link>
          )
        }
      />
    </Dialog>
  );
}
