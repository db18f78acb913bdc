import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import PhoneMissedIcon from '@mui/icons-material/PhoneMissed';
import PlaceIcon from '@mui/icons-material/Place';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/errors';
import { whatsappText } from '../../../app/whatsappText';
import {
  type SimulatorKind,
  type SimulatorMessage,
  type SimulatorPhone,
  type SimulatorSend,
  useSendMessage,
} from '../api';
import { ContactCardDialog } from './ContactCardDialog';
import { LocationDialog } from './LocationDialog';

export const MAX_FILE_BYTES = 15 * 1024 * 1024;
const MESSAGE_MAX_ROWS = 5;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

export function kindOfFile(mimeType: string): SimulatorKind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/')) return 'video';
  return 'document';
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

interface ComposerProps {
  connectionId: number;
  phone: SimulatorPhone;
  /** The message the next text replies to (quotes), if any. */
  replyTo?: SimulatorMessage | null;
  onReplyDone?: () => void;
}

/** What the phone can send: text, a file, a location, a contact card or a missed call. */
export function Composer({ connectionId, phone, replyTo, onReplyDone }: ComposerProps) {
  const { t } = useTranslation('simulator');
  const send = useSendMessage(connectionId, phone.phone);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'location' | 'contact' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const label = phone.name || phone.phone;

  const submit = async (message: SimulatorSend, clearText = false) => {
    setError(null);
    try {
      await send.mutateAsync({ ...message, name: phone.name || undefined });
      if (clearText) setText('');
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
  };

  const sendText = () => {
    const body = text.trim();
    if (!body || send.isPending) return;
    const quote = replyTo ? { quotedProviderMessageId: replyTo.providerMessageId } : {};
    void submit({ kind: 'text', body, ...quote }, true).then((sent) => {
      if (sent && replyTo) onReplyDone?.();
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      sendText();
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setError(t('chat.fileTooLarge', { name: file.name }));
      return;
    }
    let base64: string;
    try {
      base64 = await readBase64(file);
    } catch {
      setError(t('chat.fileUnreadable', { name: file.name }));
      return;
    }
    const mimeType = MIME.test(file.type) ? file.type : 'application/octet-stream';
    await submit(
      {
        kind: kindOfFile(mimeType),
        body: text.trim(),
        file: { name: file.name, mimeType, base64 },
      },
      true,
    );
  };

  const action = (key: string, icon: React.ReactNode, onClick: () => void) => (
    <Tooltip title={t(key)}>
      <span>
        <IconButton aria-label={t(key)} onClick={onClick} disabled={send.isPending} size="small">
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );

  return (
    <Box
      sx={(theme) => ({
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: theme.palette.mode === 'dark' ? '#202c33' : '#f0f2f5',
        px: 1,
        py: 0.75,
      })}
    >
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError(null)} sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      {replyTo && (
        <Box
          role="status"
          aria-label={t('chat.replyingTo')}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            mb: 0.5,
            px: 1,
            py: 0.5,
            borderLeft: 4,
            borderColor: '#06cf9c',
            bgcolor: 'background.paper',
            borderRadius: 1,
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
              {t('chat.replyingTo')}
            </Typography>
            <Typography variant="caption" noWrap sx={{ display: 'block' }}>
              {whatsappText(
                replyTo.body || replyTo.fileName || t(`chat.${replyTo.kind}`, { defaultValue: '' }),
              )}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t('chat.cancelReply')} onClick={onReplyDone}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 0.25, mb: 0.5 }}>
        {action('chat.attach', <AttachFileIcon fontSize="small" />, () =>
          fileInput.current?.click(),
        )}
        {action('chat.location', <PlaceIcon fontSize="small" />, () => setDialog('location'))}
        {action('chat.contact', <ContactPhoneIcon fontSize="small" />, () => setDialog('contact'))}
        {action('chat.missedCall', <PhoneMissedIcon fontSize="small" />, () => {
          void submit({ kind: 'call_log', body: '' });
        })}
        <input
          ref={fileInput}
          type="file"
          hidden
          aria-label={t('chat.attach')}
          data-testid="simulator-file"
          onChange={onFile}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <TextField
          id="simulator-message"
          placeholder={t('chat.placeholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          multiline
          maxRows={MESSAGE_MAX_ROWS}
          fullWidth
          size="small"
          slotProps={{
            htmlInput: { 'aria-label': t('chat.input', { name: label }), maxLength: 4096 },
          }}
          sx={(theme) => ({
            '& .MuiInputBase-root': {
              bgcolor: theme.palette.mode === 'dark' ? '#2a3942' : '#fff',
              borderRadius: 3,
            },
          })}
        />
        <Tooltip title={t('chat.send')}>
          <span>
            <IconButton
              color="primary"
              aria-label={t('chat.send')}
              onClick={sendText}
              disabled={send.isPending || !text.trim()}
            >
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      <LocationDialog
        open={dialog === 'location'}
        onClose={() => setDialog(null)}
        onSend={async (location) => {
          setDialog(null);
          await submit({ kind: 'location', body: location.name ?? '', location });
        }}
      />
      <ContactCardDialog
        open={dialog === 'contact'}
        onClose={() => setDialog(null)}
        onSend={async ({ name, vcard }) => {
          setDialog(null);
          await submit({ kind: 'contact', body: name, vcard });
        }}
      />
    </Box>
  );
}
