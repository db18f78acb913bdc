import { EVENT_INTEGRATION_TYPES, type QueueIntegration } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import ListAltIcon from '@mui/icons-material/ListAlt';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowAction } from '../../../app/list/RowActions';
import { useListSearch } from '../../../app/list/useListSearch';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import { toast } from '../../../app/toast';
import { flattenPages } from '../../contacts/pagedCache';
import { useDeleteQueueIntegration, useQueueIntegrations } from '../api';
import { DeliveriesDialog } from '../components/DeliveriesDialog';
import { QueueIntegrationDialog } from '../components/QueueIntegrationDialog';
import { useQueueIntegrationsRealtime } from '../realtime';

/** Each type's mark: its initials on its colour (no third-party logos are shipped). */
const LOGOS: Record<string, { text: string; color: string }> = {
  dialogflow: { text: 'DF', color: '#ff9800' },
  n8n: { text: 'n8n', color: '#ea4b71' },
  webhook: { text: 'WH', color: '#546e7a' },
  typebot: { text: 'TB', color: '#0042da' },
};

/** Queue integrations (spec administration): type logo, id, name, actions; a dialog. */
export function QueueIntegrationsPage() {
  const { t } = useTranslation('queueIntegrations');
  useQueueIntegrationsRealtime();
  const search = useListSearch();
  const integrations = useQueueIntegrations(search.param);
  const rows = flattenPages(integrations.data, 'queueIntegrations');
  const dialog = useRecordDialog<QueueIntegration>();
  const [log, setLog] = useState<QueueIntegration | null>(null);
  const remove = useDeleteQueueIntegration();
  const deletion = useConfirmation<QueueIntegration>((integration) =>
    remove.mutateAsync(integration.id).then(() => toast.info(t('toasts.deleted'))),
  );

  const columns: ListColumn<QueueIntegration>[] = [
    {
      id: 'type',
      header: t('columns.type'),
      align: 'center',
      cell: (integration) => {
        const logo = LOGOS[integration.type] ?? { text: '?', color: '#999' };
        return (
          <Avatar
            variant="rounded"
            aria-label={t(`types.${integration.type}`)}
            sx={{ bgcolor: logo.color, width: 36, height: 36, fontSize: 13, mx: 'auto' }}
          >
            {logo.text}
          </Avatar>
        );
      },
    },
    { id: 'id', header: t('columns.id'), align: 'center', cell: (integration) => integration.id },
    { id: 'name', header: t('columns.name'), cell: (integration) => integration.name },
  ];

  return (
    <ListPage
      title={t('title')}
      search={search}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
          {t('add')}
        </Button>
      }
      columns={columns}
      rows={rows}
      rowKey={(integration) => integration.id}
      rowActions={(integration) => (
        <>
          {EVENT_INTEGRATION_TYPES.includes(integration.type) && (
            <RowAction
              title={t('deliveries.open')}
              label={t('deliveries.openFor', { name: integration.name })}
              icon={<ListAltIcon fontSize="small" />}
              onClick={() => setLog(integration)}
            />
          )}
          <EditRowAction
            label={t('edit', { name: integration.name })}
            onClick={() => dialog.edit(integration)}
          />
          <DeleteRowAction
            label={t('delete', { name: integration.name })}
            onClick={() => deletion.ask(integration)}
          />
        </>
      )}
      loading={integrations.isPending}
      failed={integrations.isError}
      emptyText={t('empty')}
      more={integrations}
      confirmDelete={{
        confirmation: deletion,
        title: (integration) => t('confirmDelete.title', { name: integration.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <QueueIntegrationDialog
          key={dialog.key}
          open
          integration={dialog.record}
          onClose={dialog.close}
        />
      )}
      {log && <DeliveriesDialog integration={log} onClose={() => setLog(null)} />}
    </ListPage>
  );
}
