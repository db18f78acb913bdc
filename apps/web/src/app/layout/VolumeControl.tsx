import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVolume } from '../preferences';

export function VolumeControl() {
  const { t } = useTranslation('layout');
  const [volume] = useVolume();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const label = t('volume.label');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? popoverId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <VolumeIcon volume={volume} />
        </IconButton>
      </Tooltip>
      <VolumePopover id={popoverId} anchor={anchor} onClose={() => setAnchor(null)} />
    </>
  );
}

export const VolumeIcon = ({ volume, ...props }: { volume: number; fontSize?: 'small' }) =>
  volume === 0 ? <VolumeOffIcon {...props} /> : <VolumeUpIcon {...props} />;

/** The volume's slider, under whatever opened it (its own button, or a phone's more menu). */
export function VolumePopover(props: {
  id?: string;
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('layout');
  const [volume, setVolume] = useVolume();
  const labelId = useId();
  const label = t('volume.label');
  return (
    <Popover
      id={props.id}
      open={Boolean(props.anchor)}
      anchorEl={props.anchor}
      onClose={props.onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      transformOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Box sx={{ px: 3, pt: 1.5, pb: 1, width: 240 }}>
        <Typography id={labelId} variant="body2" gutterBottom>
          {label}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <VolumeOffIcon fontSize="small" aria-hidden />
          <Slider
            aria-labelledby={labelId}
            value={volume}
            min={0}
            max={1}
            step={0.1}
            valueLabelDisplay="auto"
            valueLabelFormat={(value) => `${Math.round(value * 100)}%`}
            getAriaValueText={(value) => `${Math.round(value * 100)}%`}
            onChange={(_event, value) => setVolume(value as number)}
          />
          <VolumeUpIcon fontSize="small" aria-hidden />
        </Box>
      </Box>
    </Popover>
  );
}
