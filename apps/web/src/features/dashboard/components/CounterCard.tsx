import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * One figure of the dashboard: an icon, its label and its value, read as "label: value". Without
 * a value yet it holds a skeleton of the figure's size (busy for screen readers).
 */
export function CounterCard({
  icon,
  label,
  value,
  color,
}: {
  icon: ReactNode;
  label: string;
  value: string | number | undefined;
  color: string;
}) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={label}
      aria-busy={value === undefined}
      sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, height: '100%' }}
    >
      <Box
        aria-hidden
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 48,
          height: 48,
          flexShrink: 0,
          borderRadius: '50%',
          bgcolor: color,
          color: 'common.white',
        }}
      >
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
          {value === undefined ? <Skeleton width={64} /> : value}
        </Typography>
      </Box>
    </Paper>
  );
}
