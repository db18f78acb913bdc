import type { QueueIntegration } from '@atendi/shared';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDeliveries } from '../api';

const COLORS = { delivered: 'success', pending: 'warning', failed: 'error' } as const;

/** The delivery log of a webhook or n8n integration: each event, its status and tries. */
export function DeliveriesDialog({
  integration,
  onClose,
}: {
  integration: QueueIntegration;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('queueIntegrations');
  const deliveries = useDeliveries(integration.id);
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const when = (value: string) => new Date(value).toLocaleString(i18n.language);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('deliveries.title', { name: integration.name })}</DialogTitle>
      <DialogContent>
        {rows.length === 0 && !deliveries.isPending ? (
          <Typography color="text.secondary">{t('deliveries.empty')}</Typography>
        ) : (
          <Table size="small" aria-label={t('deliveries.title', { name: integration.name })}>
            <TableHead>
              <TableRow>
                <TableCell>{t('deliveries.when')}</TableCell>
                <TableCell>{t('deliveries.event')}</TableCell>
                <TableCell>{t('deliveries.status')}</TableCell>
                <TableCell align="center">{t('deliveries.attempts')}</TableCell>
                <TableCell>{t('deliveries.lastError')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>{when(row.createdAt)}</TableCell>
                  <TableCell>{row.event}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={COLORS[row.status]}
                      label={t(`deliveries.statuses.${row.status}`)}
                    />
                  </TableCell>
                  <TableCell align="center">{row.attempts}</TableCell>
                  <TableCell>{row.lastError ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        {deliveries.hasNextPage && (
          <Button onClick={() => deliveries.fetchNextPage()}>{t('deliveries.more')}</Button>
        )}
        <Button onClick={onClose}>{t('common:actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
