import { hasRole } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { formatShortDateTime } from '../../../app/format';
import { toast } from '../../../app/toast';
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
  const me = useSessionUser();
  const isAdmin = hasRole(me, 'admin');
  const theme = useTheme();
  // JS breakpoints: a phone gets two columns, each cell holding what the hidden columns had
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const connections = useConnections();
  const rows = connections.data ?? [];
  const [editing, setEditing] = useState<{ connection?: ConnectionSummary } | null>(null);
  const [deleting, setDeleting] = useState<ConnectionSummary | null>(null);
  const [disconnecting, setDisconnecting] = useState<ConnectionSummary | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const deleteConnection = useDeleteConnection();
  const session = useSessionAction();
  const closeQr = useCallback(() => setQrFor(null), []);

  const runSession = async (connection: ConnectionSummary, action: SessionAction) => {
    if (action === 'disconnect') {
      setDisconnecting(connection);
      return;
    }
    try {
      await session.mutateAsync({ id: connection.id, action });
    } catch {
      // the query client already showed the error
    }
  };

  const confirmDisconnect = async () => {
    if (!disconnecting) return;
    try {
      await session.mutateAsync({ id: disconnecting.id, action: 'disconnect' });
      toast.success(t('toasts.disconnected'));
    } catch {
      // shown by the query client
    } finally {
      setDisconnecting(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteConnection.mutateAsync(deleting.id);
      toast.success(t('toasts.deleted'));
    } catch {
      // shown by the query client
    } finally {
      setDeleting(null);
    }
  };

  const columns = compact ? 2 : (narrow ? 3 : 6) + (isAdmin ? 1 : 0);
  const busyId = session.isPending ? session.variables?.id : undefined;

  return (
    <>
      <PageHeader title={t('title')}>
        {isAdmin && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
            {t('add')}
          </Button>
        )}
      </PageHeader>

      <TableContainer
        component={Paper}
        variant="outlined"
        sx={{ flex: 1, minHeight: 240, overflow: 'auto' }}
      >
        <Table stickyHeader size="small" aria-label={t('title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('columns.name')}</TableCell>
              {!compact && <TableCell>{t('columns.status')}</TableCell>}
              <TableCell align={compact ? 'right' : undefined}>{t('columns.session')}</TableCell>
              {!narrow && <TableCell>{t('columns.lastUpdate')}</TableCell>}
              {!narrow && <TableCell align="center">{t('columns.default')}</TableCell>}
              {!narrow && <TableCell>{t('columns.provider')}</TableCell>}
              {isAdmin && !compact && <TableCell align="center">{t('columns.actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((connection) => {
              const editButtons = isAdmin && (
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('actions.edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('actions.editConnection', { name: connection.name })}
                      onClick={() => setEditing({ connection })}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('actions.delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('actions.deleteConnection', { name: connection.name })}
                      onClick={() => setDeleting(connection)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Box>
              );
              const sessionActions = (
                <SessionActions
                  status={connection.status}
                  canDisconnect={isAdmin}
                  busy={busyId === connection.id}
                  onShowQr={() => setQrFor(connection.id)}
                  onAction={(action) => runSession(connection, action)}
                />
              );
              return (
                <TableRow key={connection.id} hover>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    <Box component="span" sx={{ fontWeight: compact ? 600 : undefined }}>
                      {connection.name}
                    </Box>
                    {narrow && connection.isDefault && (
                      <CheckCircleIcon
                        color="success"
                        fontSize="inherit"
                        titleAccess={t('isDefault')}
                        sx={{ ml: 0.5, verticalAlign: 'middle' }}
                      />
                    )}
                    {compact && (
                      <Box sx={{ mt: 0.5 }}>
                        <ConnectionStatus status={connection.status} />
                      </Box>
                    )}
                    {/* narrow screens have no provider or date columns: they go under the name */}
                    {narrow && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {[
                          connection.provider ? t(`providers.${connection.provider}`) : '',
                          formatShortDateTime(connection.updatedAt),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Typography>
                    )}
                  </TableCell>
                  {!compact && (
                    <TableCell>
                      <ConnectionStatus status={connection.status} />
                    </TableCell>
                  )}
                  <TableCell align={compact ? 'right' : undefined}>
                    {sessionActions}
                    {compact && editButtons && <Box sx={{ mt: 0.5 }}>{editButtons}</Box>}
                  </TableCell>
                  {!narrow && (
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatShortDateTime(connection.updatedAt)}
                    </TableCell>
                  )}
                  {!narrow && (
                    <TableCell align="center">
                      {connection.isDefault && (
                        <CheckCircleIcon
                          color="success"
                          fontSize="small"
                          titleAccess={t('isDefault')}
                          sx={{ verticalAlign: 'middle' }}
                        />
                      )}
                    </TableCell>
                  )}
                  {!narrow && (
                    <TableCell>
                      {connection.provider ? t(`providers.${connection.provider}`) : ''}
                    </TableCell>
                  )}
                  {isAdmin && !compact && <TableCell align="center">{editButtons}</TableCell>}
                </TableRow>
              );
            })}
            {connections.isPending && (
              <TableRow>
                <TableCell colSpan={columns} sx={{ p: 0 }}>
                  <LinearProgress aria-label={t('common:loading')} />
                </TableCell>
              </TableRow>
            )}
            {!connections.isPending && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={columns} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {connections.isError ? t('common:errors.listFailed') : t('empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>

      {editing && (
        <ConnectionDialog
          key={editing.connection?.id ?? 'new'}
          open
          connection={editing.connection}
          onClose={() => setEditing(null)}
        />
      )}
      {qrFor !== null && <QrCodeDialog key={qrFor} connectionId={qrFor} onClose={closeQr} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        message={t('confirmDelete.message')}
        confirmLabel={t('actions.delete')}
        busy={deleteConnection.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={disconnecting !== null}
        title={t('confirmDisconnect.title', { name: disconnecting?.name ?? '' })}
        message={t('confirmDisconnect.message')}
        confirmLabel={t('actions.disconnect')}
        busy={session.isPending}
        onConfirm={confirmDisconnect}
        onClose={() => setDisconnecting(null)}
      />
    </>
  );
}
