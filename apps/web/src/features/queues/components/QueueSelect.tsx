import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import { type SxProps, type Theme, useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueues } from '../api';

interface QueueSelectProps {
  id: string;
  name?: string;
  value: number[] | null | undefined;
  onChange: (queueIds: number[]) => void;
  onBlur?: () => void;
  ref?: Ref<HTMLInputElement>;
  /** 'Filas' when not given. */
  label?: string;
  error?: boolean;
  /** A validation message; the queues' own load failure is said when there is none. */
  helperText?: ReactNode;
  disabled?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * Picks any of the company's queues, each chosen one a chip in its queue's colour. Takes a
 * react-hook-form `field` as it is: `<QueueSelect id="..." {...field} />`.
 */
export function QueueSelect(props: QueueSelectProps) {
  const { id, name, value, onChange, onBlur, ref, label, error, helperText, disabled, sx } = props;
  const { t } = useTranslation('common');
  const theme = useTheme();
  const queues = useQueues();
  const options = queues.data ?? [];
  const byId = new Map(options.map((queue) => [queue.id, queue]));

  return (
    <TextField
      id={id}
      select
      label={label ?? t('queueSelect.label')}
      fullWidth
      sx={sx}
      name={name}
      value={value ?? []}
      disabled={disabled}
      onChange={(event) => {
        // the select answers an array; a browser's autofill may answer "1,2"
        const chosen = event.target.value as unknown as number[] | string;
        onChange(typeof chosen === 'string' ? chosen.split(',').map(Number) : chosen);
      }}
      onBlur={onBlur}
      inputRef={ref}
      error={Boolean(error) || queues.isError}
      helperText={helperText ?? (queues.isError ? t('queueSelect.failed') : undefined)}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(selected as number[]).map((queueId) => {
                const queue = byId.get(queueId);
                return (
                  <Chip
                    key={queueId}
                    size="small"
                    label={queue?.name ?? `#${queueId}`}
                    sx={
                      queue?.color
                        ? {
                            bgcolor: queue.color,
                            color: theme.palette.getContrastText(queue.color),
                          }
                        : undefined
                    }
                  />
                );
              })}
            </Box>
          ),
        },
      }}
    >
      {options.length === 0 && (
        <MenuItem disabled value="">
          {queues.isPending ? t('loading') : t('queueSelect.none')}
        </MenuItem>
      )}
      {options.map((queue) => (
        <MenuItem key={queue.id} value={queue.id}>
          <Box
            component="span"
            aria-hidden
            sx={{
              width: 12,
              height: 12,
              borderRadius: '50%',
              bgcolor: queue.color,
              mr: 1,
              flexShrink: 0,
            }}
          />
          {queue.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
