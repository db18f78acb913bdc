import { ACK } from '@atendi/shared';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import type { SimulatorMessage } from '../api';

const READ_BLUE = '#53bdeb';

/**
 * WhatsApp's ticks, numbered as the spec does. On the company's replies: one grey (sent, ack 2),
 * two grey (delivered, 3), two blue (read 4, played 5). On the phone's own messages: a clock until the company took it,
 * one grey once it did, two blue once an agent read it.
 */
export function Ticks({
  message,
}: {
  message: Pick<SimulatorMessage, 'direction' | 'ack' | 'delivered'>;
}) {
  const { t } = useTranslation('simulator');
  let label: string;
  let icon: React.ReactNode;
  let state: string;
  if (message.direction === 'inbound') {
    // The company's read receipt turns the phone's own message blue, as on WhatsApp.
    state = !message.delivered ? 'pending' : message.ack >= ACK.read ? 'readByCompany' : 'received';
    label = t(`ticks.${state}`);
    icon =
      state === 'readByCompany' ? (
        <DoneAllIcon sx={{ fontSize: 16, color: READ_BLUE }} />
      ) : message.delivered ? (
        <DoneIcon sx={{ fontSize: 16 }} />
      ) : (
        <AccessTimeIcon sx={{ fontSize: 14 }} />
      );
  } else if (message.ack >= ACK.read) {
    state = 'read';
    label = t('ticks.read');
    icon = <DoneAllIcon sx={{ fontSize: 16, color: READ_BLUE }} />;
  } else if (message.ack === ACK.delivered) {
    state = 'delivered';
    label = t('ticks.delivered');
    icon = <DoneAllIcon sx={{ fontSize: 16 }} />;
  } else if (message.ack === ACK.sent) {
    state = 'sent';
    label = t('ticks.sent');
    icon = <DoneIcon sx={{ fontSize: 16 }} />;
  } else {
    state = 'pending';
    label = t('ticks.pending');
    icon = <AccessTimeIcon sx={{ fontSize: 14 }} />;
  }
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-ticks={state}
      sx={{ display: 'inline-flex', color: 'text.secondary', '& svg': { display: 'block' } }}
    >
      {icon}
    </Box>
  );
}
