import LinkOffIcon from '@mui/icons-material/LinkOff';
import ScienceIcon from '@mui/icons-material/Science';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageHeader } from '../../../app/components/PageHeader';
import { toast } from '../../../app/toast';
import { ConnectionStatus } from '../../connections/components/ConnectionStatus';
import {
  type SimulatorPhone,
  useAddPhone,
  useDisconnectPhone,
  usePhones,
  useSimulatorConnections,
} from '../api';
import { ChatPane } from '../components/ChatPane';
import { NewContactDialog } from '../components/NewContactDialog';
import { PhoneList } from '../components/PhoneList';
import { ScanPanel } from '../components/ScanPanel';
import { useSimulatorRealtime } from '../realtime';

const PAIRED_STATUSES = ['CONNECTED', 'PAIRING', 'TIMEOUT'];

export function SimulatorPage() {
  const { t } = useTranslation(['simulator', 'connections']);
  useSimulatorRealtime();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [params, setParams] = useSearchParams();
  const connections = useSimulatorConnections();
  const list = connections.data ?? [];
  const asked = Number(params.get('connection'));
  const connection = list.find((item) => item.id === asked) ?? list[0];
  const connectionId = connection?.id ?? null;

  const phonesQuery = usePhones(connectionId);
  const [selected, setSelected] = useState<SimulatorPhone | null>(null);
  const [adding, setAdding] = useState(false);
  const disconnect = useDisconnectPhone();
  const addPhone = useAddPhone(connectionId ?? 0);

  const phones = phonesQuery.data ?? [];
  const current = selected && phones.find((phone) => phone.phone === selected.phone);

  const chooseConnection = (id: number) => {
    setSelected(null);
    setParams({ connection: String(id) }, { replace: true });
  };

  // Kept by the server, so a contact that has not written yet is still listed after a reload.
  const addContact = async (phone: SimulatorPhone) => {
    if (connectionId === null) return;
    try {
      await addPhone.mutateAsync(phone);
      setSelected(phone);
      setAdding(false);
    } catch {
      // shown by the query client
    }
  };

  const disconnectPhone = async () => {
    if (connectionId === null) return;
    try {
      await disconnect.mutateAsync(connectionId);
      toast.success(t('phoneDisconnected'));
    } catch {
      // shown by the query client
    }
  };

  const status = connection?.status;
  const showList = !narrow || !current;
  const showChat = !narrow || Boolean(current);

  return (
    <>
      <PageHeader title={t('title')} />
      <Alert
        severity="warning"
        variant="outlined"
        icon={<ScienceIcon />}
        role="note"
        sx={{ mb: 2 }}
      >
        {t('banner')}
      </Alert>

      {connections.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('loadFailed')}
        </Alert>
      )}
      {connections.isSuccess && list.length === 0 && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button component={RouterLink} to="/connections" color="inherit" size="small">
              {t('goToConnections')}
            </Button>
          }
        >
          {t('noConnections')}
        </Alert>
      )}

      {connection && (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
            <TextField
              id="simulator-connection"
              select
              size="small"
              label={t('connection')}
              value={connection.id}
              onChange={(event) => chooseConnection(Number(event.target.value))}
              sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
            >
              {list.map((item) => (
                <MenuItem key={item.id} value={item.id}>
                  {item.name}
                </MenuItem>
              ))}
            </TextField>
            <Box
              sx={{ flex: 1 }}
              role="status"
              aria-live="polite"
              aria-label={t('connections:columns.status')}
            >
              <ConnectionStatus status={status} />
            </Box>
            {status && PAIRED_STATUSES.includes(status) && (
              <Button
                variant="outlined"
                color="error"
                startIcon={<LinkOffIcon />}
                onClick={disconnectPhone}
                disabled={disconnect.isPending}
              >
                {t('disconnectPhone')}
              </Button>
            )}
          </Box>

          {status === 'qrcode' && <ScanPanel connectionId={connection.id} />}
          {status === 'CONNECTED' && (
            <Typography variant="body2" color="success.main" sx={{ mb: 1.5 }}>
              {t('state.connected')}
            </Typography>
          )}
          {status === 'OPENING' && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              {t('state.opening')}
            </Typography>
          )}
          {status === 'DISCONNECTED' && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {t('state.waiting')}{' '}
              <Link component={RouterLink} to="/connections">
                {t('goToConnections')}
              </Link>
            </Alert>
          )}

          <Paper
            variant="outlined"
            sx={{
              flex: 1,
              minHeight: 380,
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: '300px 1fr' },
              overflow: 'hidden',
            }}
          >
            {showList && (
              <Box sx={{ borderRight: { md: 1 }, borderColor: { md: 'divider' }, minHeight: 0 }}>
                <PhoneList
                  phones={phones}
                  selected={current?.phone ?? null}
                  onSelect={setSelected}
                  onAdd={() => setAdding(true)}
                />
              </Box>
            )}
            {showChat &&
              (current ? (
                <ChatPane
                  key={`${connection.id}-${current.phone}`}
                  connectionId={connection.id}
                  phone={current}
                  onBack={narrow ? () => setSelected(null) : undefined}
                />
              ) : (
                <Box
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    p: 3,
                    color: 'text.secondary',
                  }}
                >
                  <Typography variant="body2">{t('chat.pick')}</Typography>
                </Box>
              ))}
          </Paper>
          <NewContactDialog open={adding} onClose={() => setAdding(false)} onCreate={addContact} />
        </>
      )}
    </>
  );
}
