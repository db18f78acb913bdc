import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * A setting's name above its select rather than inside its border, so the long ones
 * ('Enviar saudação quando houver somente 1 fila') wrap on a phone instead of being cut.
 */
export function SettingLabel({
  id,
  htmlFor,
  children,
}: {
  id: string;
  htmlFor?: string;
  children: ReactNode;
}) {
  return (
    <Typography
      component="label"
      id={id}
      htmlFor={htmlFor}
      variant="body2"
      sx={{ display: 'block', mb: 0.75, fontWeight: 500, color: 'text.secondary' }}
    >
      {children}
    </Typography>
  );
}
