import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { visuallyHidden } from '../../../app/a11y';

export interface ChartRow {
  label: string;
  value: number;
}

/**
 * A chart with its title, a description and, for screen readers, the same figures as a table;
 * the drawing itself is hidden from them. A skeleton of the drawing's size holds its place while
 * it loads; a failure shows `errorText` in its place.
 */
export function ChartPanel({
  title,
  subtitle,
  description,
  columns,
  rows,
  loading,
  errorText,
  children,
}: {
  title: string;
  subtitle?: string;
  description: string;
  columns: [string, string];
  rows: ChartRow[] | undefined;
  loading: boolean;
  errorText?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper
      variant="outlined"
      component="figure"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      aria-busy={loading && !rows && !errorText}
      sx={{ m: 0, p: 2, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 1, mb: 1 }}>
        <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ flex: '1 1 auto' }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="subtitle1" color="text.secondary">
            {subtitle}
          </Typography>
        )}
      </Box>
      <Typography id={`${id}-description`} sx={visuallyHidden}>
        {description}
      </Typography>
      {errorText ? (
        <Alert severity="error">{errorText}</Alert>
      ) : loading && !rows ? (
        <Skeleton variant="rounded" height={280} />
      ) : (
        <>
          <Box aria-hidden sx={{ width: '100%', height: 280 }}>
            {children}
          </Box>
          <Table size="small" sx={visuallyHidden}>
            <caption>{title}</caption>
            <TableHead>
              <TableRow>
                <TableCell>{columns[0]}</TableCell>
                <TableCell>{columns[1]}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(rows ?? []).map((row) => (
                <TableRow key={row.label}>
                  <TableCell>{row.label}</TableCell>
                  <TableCell>{row.value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Paper>
  );
}
