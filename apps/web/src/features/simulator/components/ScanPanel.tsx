import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api';
import { errorMessage } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { NoQrCodeError, useScan } from '../api';

/**
 * The phone's camera, for a network with no camera: the person pastes the QR text shown in the
 * connection's QR dialog, or scans the current one with one click.
 */
export function ScanPanel({ connectionId }: { connectionId: number }) {
  const { t } = useTranslation('simulator');
  const scan = useScan();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();

  const run = async (qrcode?: string) => {
    setError(null);
    try {
      await scan.mutateAsync({ connectionId, qrcode });
      setCode('');
      toast.success(t('scan.scanned'));
    } catch (failure) {
      if (failure instanceof NoQrCodeError) setError(t('scan.noCode'));
      else if (failure instanceof ApiError && failure.status === 400) setError(t('scan.invalid'));
      else setError(errorMessage(failure));
    }
  };

  const submitPasted = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('scan.required'));
      return;
    }
    void run(code);
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, mb: 2 }}>
      <Typography
        id={headingId}
        variant="h6"
        component="h2"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}
      >
        <QrCodeScannerIcon aria-hidden />
        {t('scan.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('scan.help')}
      </Typography>
      {error && (
        <Alert severity="error" role="alert" sx={{ mb: 1.5 }}>
          {error}
        </Alert>
      )}
      <Box
        component="form"
        noValidate
        onSubmit={submitPasted}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
      >
        <TextField
          id="simulator-qrcode"
          label={t('scan.code')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          size="small"
          sx={{ flex: '1 1 240px' }}
          slotProps={{
            htmlInput: {
              maxLength: 200,
              autoComplete: 'off',
              spellCheck: false,
              style: { fontFamily: 'monospace' },
            },
          }}
        />
        <Button type="submit" variant="outlined" disabled={scan.isPending}>
          {t('scan.submit')}
        </Button>
        <Button
          variant="contained"
          startIcon={<QrCodeScannerIcon />}
          disabled={scan.isPending}
          onClick={() => void run()}
        >
          {t('scan.oneClick')}
        </Button>
      </Box>
    </Paper>
  );
}
