import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useEffect, useSyncExternalStore } from 'react';
import { getToasts, subscribeToasts, type Toast, toast } from '../toast';

/** Toasts close by themselves after 3 s (spec administration 9); errors stay a little longer. */
const AUTO_CLOSE_MS = 3_000;
const ERROR_CLOSE_MS = 6_000;

function ToastItem({ item }: { item: Toast }) {
  useEffect(() => {
    const timer = setTimeout(
      () => toast.dismiss(item.id),
      item.severity === 'error' ? ERROR_CLOSE_MS : AUTO_CLOSE_MS,
    );
    return () => clearTimeout(timer);
  }, [item]);
  return (
    <Alert
      variant="filled"
      severity={item.severity}
      onClose={() => toast.dismiss(item.id)}
      role={item.severity === 'error' ? 'alert' : 'status'}
      sx={{ boxShadow: 3, pointerEvents: 'auto', alignItems: 'center' }}
    >
      {item.message}
    </Alert>
  );
}

export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <Stack
      spacing={1}
      aria-live="polite"
      sx={{
        position: 'fixed',
        top: { xs: 8, sm: 16 },
        right: { xs: 8, sm: 16 },
        left: { xs: 8, sm: 'auto' },
        zIndex: (theme) => theme.zIndex.snackbar,
        maxWidth: { sm: 420 },
        pointerEvents: 'none',
      }}
    >
      {items.map((item) => (
        <ToastItem key={item.id} item={item} />
      ))}
    </Stack>
  );
}
