import Box from '@mui/material/Box';
import { create } from 'qrcode';
import { useMemo } from 'react';

const MARGIN = 4;

/** One SVG path of the dark modules, offset by a quiet zone of MARGIN modules. */
function modulesPath(text: string): { path: string; size: number } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.get(y, x)) parts.push(`M${x + MARGIN} ${y + MARGIN}h1v1h-1z`);
    }
  }
  return { path: parts.join(''), size: modules.size };
}

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
  const code = useMemo(() => modulesPath(value), [value]);
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
      <path d={code.path} fill="#000" />
    </Box>
  );
}
