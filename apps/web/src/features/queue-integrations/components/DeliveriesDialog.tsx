import type { IntegrationDelivery, QueueIntegration } from '@atendi/shared';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { FormDialog } from '../../../app/components/FormDialog';
import { type ListColumn, ListTable } from '../../../app/list/ListTable';
import { useDeliveries } from '../api';

const COLORS = { delivered: 'success', pending: 'warning', failed: 'error' } as const;

/** Which words tell what an HTTP status means for a delivery. */
function httpMeaning(status: number | null) {
  if (status === 401 || status === 403) return 'httpAuth';
  if (status === 404 || status === 410) return 'httpNotFound';
  if (status !== null && status >= 400 && status < 500) return 'httpRejected';
  if (status !== null && status >= 500) return 'httpServer';
  return 'httpOther';
}

/**
 * Why a delivery's last try failed, in the reader's language: from the server's code and the
 * receiver's status, never from the network's own (English) words, which stay as the detail.
 */
export function deliveryProblem(delivery: IntegrationDelivery, t: TFunction): string | null {
  if (!delivery.errorCode && !delivery.lastError) return null;
  const key =
    delivery.errorCode === 'ERR_INTEGRATION_HTTP_STATUS'
      ? httpMeaning(delivery.responseStatus)
      : (delivery.errorCode ?? 'unknown');
  return t(`deliveries.errors.${key}`, { status: delivery.responseStatus ?? '' });
}

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
  const clock = useClock();
  const title = t('deliveries.title', { name: integration.name });
  const columns: ListColumn<IntegrationDelivery>[] = [
    {
      id: 'when',
      header: t('deliveries.when'),
      cell: (row) =>
        new Date(row.createdAt).toLocaleString(i18n.language, { timeZone: clock.zone }),
    },
    {
      id: 'event',
      header: t('deliveries.event'),
      cell: (row) => (
        <Box>
          {t(`deliveries.events.${row.event.replaceAll('.', '_')}`, { defaultValue: row.event })}
          {/* the name the receiver reads in its x-atendi-event header */}
          <Typography variant="caption" component="div" sx={{ fontFamily: 'monospace' }}>
            {row.event}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'status',
      header: t('deliveries.status'),
      cell: (row) => (
        <Chip
          size="small"
          color={COLORS[row.status]}
          label={t(`deliveries.statuses.${row.status}`)}
        />
      ),
    },
    {
      id: 'attempts',
      header: t('deliveries.attempts'),
      align: 'center',
      cell: (row) => row.attempts,
    },
    {
      id: 'error',
      header: t('deliveries.lastError'),
      sx: { minWidth: { sm: 240 } },
      cell: (row) => {
        const problem = deliveryProblem(row, t);
        if (!problem) return null;
        return (
          <Box>
            {problem}
            {row.lastError && (
              <Typography
                variant="caption"
                component="div"
                color="text.secondary"
                sx={{ overflowWrap: 'anywhere' }}
              >
                {t('deliveries.detail', { detail: row.lastError })}
              </Typography>
            )}
          </Box>
        );
      },
    },
  ];
  return (
    <FormDialog
      open
      onClose={onClose}
      title={title}
      onSubmit={onClose}
      maxWidth="md"
      // the table scrolls inside the dialog, loading more as it nears its end
      contentSx={{ display: 'flex', flexDirection: 'column', p: { xs: 1, sm: 2 } }}
    >
      <ListTable
        label={title}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loading={deliveries.isPending}
        failed={deliveries.isError}
        emptyText={t('deliveries.empty')}
        more={deliveries}
      />
    </FormDialog>
  );
}
