import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a page's code or translations load. Text-free: translations may not be here yet. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Box
      role="progressbar"
      aria-busy="true"
      aria-label="…"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: fullScreen ? '100dvh' : 240,
        width: '100%',
      }}
    >
      <CircularProgress aria-hidden />
    </Box>
  );
}
