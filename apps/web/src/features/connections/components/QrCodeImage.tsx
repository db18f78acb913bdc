import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { encodeQr, qrPath } from '../qrcode';

const MARGIN = 4;

/** The text as a scannable QR code: dark modules on white, whatever the theme. */
export function QrCodeImage({
  value,
  label,
  size = 256,
}: {
  value: string;
  label: string;
  size?: number;
}) {
  const code = useMemo(() => encodeQr(value, 'M'), [value]);
  const extent = code.size + MARGIN * 2;
  return (
    <Box
      component="svg"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${extent} ${extent}`}
      shapeRendering="crispEdges"
      data-qr-value={value}
      sx={{ width: size, maxWidth: '100%', height: 'auto', display: 'block', bgcolor: '#fff' }}
    >
      <rect width={extent} height={extent} fill="#fff" />
      <path d={qrPath(code, MARGIN)} fill="#000" />
    </Box>
  );
}
