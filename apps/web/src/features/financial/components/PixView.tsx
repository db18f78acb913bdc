import type { SubscriptionCharge } from '@atendi/shared';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../app/format';

/** How long the 'copied' indicator shows (spec administration 9). */
export const COPIED_INDICATOR_MS = 1_000;

/** The Pix charge: its QR code, its copy-and-paste code with a copy button, and its value. */
export function PixView({ charge }: { charge: SubscriptionCharge }) {
  const { t } = useTranslation('financial');
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(charge.qrcode.qrcode);
    } catch {
      // No clipboard (an insecure page): the code stays selectable in the field.
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, justifyItems: 'center', textAlign: 'center' }}>
      <Typography variant="h6">{t('pix.title')}</Typography>
      <Typography>
        {t('pix.value', { value: formatMoney(Number(charge.valor.original)) })}
      </Typography>
      <Box
        component="img"
        src={charge.qrcode.imagemQrcode}
        alt={t('pix.qrAlt')}
        sx={{ width: 240, height: 240, imageRendering: 'pixelated' }}
      />
      <TextField
        label={t('pix.code')}
        value={charge.qrcode.qrcode}
        fullWidth
        multiline
        minRows={2}
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Button
        variant="contained"
        color={copied ? 'success' : 'primary'}
        startIcon={<ContentCopyIcon />}
        onClick={() => void copy()}
      >
        {copied ? t('pix.copied') : t('pix.copy')}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {t('pix.waiting')}
      </Typography>
    </Box>
  );
}
