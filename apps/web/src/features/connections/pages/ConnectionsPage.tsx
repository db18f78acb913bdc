import { hasRole } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { useClock } from '../../../app/clock';
import { ConfirmationDialog, useConfirmation } from '../../../app/components/ConfirmDialog';
import { ListPage } from '../../../app/list/ListPage';
import type { ListColumn } from '../../../app/list/ListTable';
import { DeleteRowAction, EditRowAction, RowActions } from '../../../app/list/RowActions';
import { useRecordDialog } from '../../../app/list/useRecordDialog';
import {
  type ConnectionSummary,
  type SessionAction,
  useConnections,
  useDeleteConnection,
  useSessionAction,
} from '../api';
import { ConnectionDialog } from '../components/ConnectionDialog';
import { ConnectionStatus } from '../components/ConnectionStatus';
import { QrCodeDialog } from '../components/QrCodeDialog';
import { SessionActions } from '../components/SessionActions';

export function ConnectionsPage() {
  const { t } = useTranslation('connections');
  const clock = useClock();
  const me = useSessionUser();
  const isAdmin = hasRole(me, 'admin');
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const connections = useConnections();
  const dialog = useRecordDialog<ConnectionSummary>();
  const [qrFor, setQrFor] = useState<number | null>(null);
  const deleteConnection = useDeleteConnection();
  const session = useSessionAction();
  const closeQr = useCallback(() => setQrFor(null), []);
  const deletion = useConfirmation<ConnectionSummary>(
    (connection) => deleteConnection.mutateAsync(connection.id),
    t('toasts.deleted'),
  );
  const disconnection = useConfirmation<ConnectionSummary>(
    (connection) => session.mutateAsync({ id: connection.id, action: 'disconnect' }),
    t('toasts.disconnected'),
  );

  const runSession = async (connection: ConnectionSummary, action: SessionAction) => {
    if (action === 'disconnect') {
      disconnection.ask(connection);
      return;
    }
    try {
      await session.mutateAsync({ id: connection.id, action });
    } catch {
      // the query client already showed the error
    }
  };

  const busyId = session.isPending ? session.variables?.id : undefined;
  const editButtons = (connection: ConnectionSummary) =>
    isAdmin && (
      <RowActions>
        <EditRowAction
          label={t('actions.editConnection', { name: connection.name })}
          onClick={() => dialog.edit(connection)}
        />
        <DeleteRowAction
          label={t('actions.deleteConnection', { name: connection.name })}
          onClick={() => deletion.ask(connection)}
        />
      </RowActions>
    );
  const providerName = (connection: ConnectionSummary) =>
    connection.provider ? t(`providers.${connection.provider}`) : '';
  const defaultMark = (fontSize: 'inherit' | 'small') => (
    <CheckCircleIcon
      color="success"
      fontSize={fontSize}
      titleAccess={t('isDefault')}
      sx={{ ml: fontSize === 'inherit' ? 0.5 : 0, verticalAlign: 'middle' }}
    />
  );

  // JS breakpoints: a phone gets two columns, each cell holding what the hidden columns had
  const columns: ListColumn<ConnectionSummary>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (connection) => (
        <>
          <Box component="span" sx={{ fontWeight: compact ? 600 : undefined }}>
            {connection.name}
          </Box>
          {narrow && connection.isDefault && defaultMark('inherit')}
          {compact && (
            <Box sx={{ mt: 0.5 }}>
              <ConnectionStatus status={connection.status} />
            </Box>
          )}
          {/* narrow screens have no provider or date columns: they go under the name */}
          {narrow && (
            <Typography variant="caption" color="text.secondary" component="div">
              {[providerName(connection), clock.shortDateTime(connection.updatedAt)]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          )}
        </>
      ),
    },
  ];
  if (!compact) {
    columns.push({
      id: 'status',
      header: t('columns.status'),
      cell: (connection) => <ConnectionStatus status={connection.status} />,
    });
  }
  columns.push({
    id: 'session',
    header: t('columns.session'),
    align: compact ? 'right' : undefined,
    cell: (connection) => (
      <>
        <SessionActions
          status={connection.status}
          canDisconnect={isAdmin}
          busy={busyId === connection.id}
          onShowQr={() => setQrFor(connection.id)}
          onAction={(action) => runSession(connection, action)}
        />
        {compact && isAdmin && <Box sx={{ mt: 0.5 }}>{editButtons(connection)}</Box>}
      </>
    ),
  });
  if (!narrow) {
    columns.push(
      {
        id: 'updatedAt',
        header: t('columns.lastUpdate'),
        sx: { whiteSpace: 'nowrap' },
        cell: (connection) => clock.shortDateTime(connection.updatedAt),
      },
      {
        id: 'default',
        header: t('columns.default'),
        align: 'center',
        cell: (connection) => connection.isDefault && defaultMark('small'),
      },
      { id: 'provider', header: t('columns.provider'), cell: providerName },
    );
  }

  return (
    <ListPage
      title={t('title')}
      actions={
        isAdmin && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={dialog.add}>
            {t('add')}
          </Button>
        )
      }
      columns={columns}
      rows={connections.data ?? []}
      rowKey={(connection) => connection.id}
      rowActions={isAdmin && !compact ? editButtons : undefined}
      loading={connections.isPending}
      failed={connections.isError}
      emptyText={t('empty')}
      // its two phone columns already hold the rest: a table fits, cards would not
      cardsOnPhone={false}
      confirmDelete={{
        confirmation: deletion,
        title: (connection) => t('confirmDelete.title', { name: connection.name }),
        message: t('confirmDelete.message'),
      }}
    >
      {dialog.open && (
        <ConnectionDialog key={dialog.key} open connection={dialog.record} onClose={dialog.close} />
      )}
      {qrFor !== null && <QrCodeDialog key={qrFor} connectionId={qrFor} onClose={closeQr} />}
      <ConfirmationDialog
        confirmation={disconnection}
        title={(connection) => t('confirmDisconnect.title', { name: connection.name })}
        message={t('confirmDisconnect.message')}
        confirmLabel={t('actions.disconnect')}
      />
    </ListPage>
  );
}
