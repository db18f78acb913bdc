import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import type { SimulatorLocation } from '../api';

function coordinate(text: string, limit: number): number | null {
  const value = Number(text.trim().replace(',', '.'));
  if (!text.trim() || !Number.isFinite(value) || Math.abs(value) > limit) return null;
  return value;
}

export function LocationDialog({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (location: SimulatorLocation) => void;
}) {
  const { t } = useTranslation('simulator');
  const [latitude, setLatitude] = useState('-23.55052');
  const [longitude, setLongitude] = useState('-46.633308');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ latitude?: string; longitude?: string }>({});

  const submit = () => {
    const lat = coordinate(latitude, 90);
    const long = coordinate(longitude, 180);
    setErrors({
      latitude: lat === null ? t('location.invalidLatitude') : undefined,
      longitude: long === null ? t('location.invalidLongitude') : undefined,
    });
    if (lat === null || long === null) return;
    onSend({ latitude: lat, longitude: long, ...(name.trim() ? { name: name.trim() } : {}) });
    setName('');
  };

  return (
    <FormDialog
      maxWidth="xs"
      fullScreenOnPhone={false}
      open={open}
      title={t('location.title')}
      submitLabel={t('chat.send')}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        id="simulator-latitude"
        label={t('location.latitude')}
        value={latitude}
        onChange={(event) => setLatitude(event.target.value)}
        error={Boolean(errors.latitude)}
        helperText={errors.latitude}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
      <TextField
        id="simulator-longitude"
        label={t('location.longitude')}
        value={longitude}
        onChange={(event) => setLongitude(event.target.value)}
        error={Boolean(errors.longitude)}
        helperText={errors.longitude}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
      <TextField
        id="simulator-place"
        label={t('location.name')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
    </FormDialog>
  );
}
