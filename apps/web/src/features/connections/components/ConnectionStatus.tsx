import type { ConnectionStatus as Status } from '@atendi/shared';
import CropFreeIcon from '@mui/icons-material/CropFree';
import SignalCellular4BarIcon from '@mui/icons-material/SignalCellular4Bar';
import SignalCellularConnectedNoInternet0BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

const ICONS = {
  qrcode: <CropFreeIcon fontSize="small" color="info" />,
  CONNECTED: <SignalCellular4BarIcon fontSize="small" color="success" />,
  DISCONNECTED: <SignalCellularConnectedNoInternet0BarIcon fontSize="small" color="error" />,
  TIMEOUT: <SignalCellularConnectedNoInternet2BarIcon fontSize="small" color="warning" />,
  PAIRING: <SignalCellularConnectedNoInternet2BarIcon fontSize="small" color="warning" />,
} as const;

/** The status as an icon and its translated name; the tooltip says what to do about it. */
export function ConnectionStatus({ status }: { status: Status | string | undefined }) {
  const { t } = useTranslation('connections');
  const known = status && t(`status.${status}`, { defaultValue: '' });
  const label = known || status || '';
  const icon =
    status === 'OPENING' ? (
      <CircularProgress size={16} aria-hidden />
    ) : (
      (ICONS[status as keyof typeof ICONS] ?? null)
    );
  return (
    <Tooltip title={known ? t(`statusHelp.${status}`) : ''}>
      <Box
        component="span"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, verticalAlign: 'middle' }}
      >
        <Box component="span" aria-hidden sx={{ display: 'inline-flex', width: 20 }}>
          {icon}
        </Box>
        <span>{label}</span>
      </Box>
    </Tooltip>
  );
}
