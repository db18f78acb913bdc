import type { Message, QuickMessage } from '@atendi/shared';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import InsertEmoticonIcon from '@mui/icons-material/InsertEmoticon';
import MicIcon from '@mui/icons-material/Mic';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  type ChangeEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../app/errors';
import { mediaHref, useQuickMessages, useSendMessage } from '../api';
import { quoteText } from '../format';

/** Quick reply labels are cut at 35 characters (spec core 9). */
export const QUICK_LABEL_MAX = 35;
/** Recordings smaller than this are a slip of the finger: dropped without a word. */
export const MIN_RECORDING_BYTES = 10_000;
const SIGN_KEY = 'signOption';
const MAX_ROWS = 5;

const EMOJIS = [
  '😀',
  '😁',
  '😂',
  '🤣',
  '😊',
  '😍',
  '😘',
  '😎',
  '🤔',
  '😅',
  '😉',
  '🙂',
  '🙃',
  '😢',
  '😭',
  '😡',
  '😱',
  '🥳',
  '😴',
  '🤝',
  '👍',
  '👎',
  '👏',
  '🙏',
  '💪',
  '👋',
  '✌️',
  '👌',
  '❤️',
  '💙',
  '💚',
  '🔥',
  '✨',
  '🎉',
  '✅',
  '❌',
  '⚠️',
  '📞',
  '📎',
  '📅',
  '⏰',
  '💰',
  '🛒',
  '📦',
  '🚚',
  '⭐',
];

export function quickLabel(quick: Pick<QuickMessage, 'shortcode' | 'message'>): string {
  const label = `${quick.shortcode} - ${quick.message}`.replace(/\s+/g, ' ');
  return label.length > QUICK_LABEL_MAX ? `${label.slice(0, QUICK_LABEL_MAX)}…` : label;
}

function readSign(): boolean {
  return localStorage.getItem(SIGN_KEY) !== 'false';
}

/** A phone or tablet (a touch screen, or a narrow one): the camera is offered beside files. */
const HAS_CAMERA_QUERY = '(pointer: coarse), (max-width: 599.95px)';

const canRecord = () =>
  typeof window !== 'undefined' &&
  typeof window.MediaRecorder !== 'undefined' &&
  Boolean(navigator.mediaDevices?.getUserMedia);

interface MessageInputProps {
  ticketId: number;
  disabled: boolean;
  replyingTo: Message | null;
  onCancelReply: () => void;
  onSent: () => void;
}

export function MessageInput({
  ticketId,
  disabled,
  replyingTo,
  onCancelReply,
  onSent,
}: MessageInputProps) {
  const { t } = useTranslation('messages');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(readSign);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [quickIndex, setQuickIndex] = useState(0);
  const [recording, setRecording] = useState(false);
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const discard = useRef(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const camera = useMediaQuery(HAS_CAMERA_QUERY, { noSsr: true });
  const [attachAnchor, setAttachAnchor] = useState<HTMLElement | null>(null);
  const quickId = useId();
  const send = useSendMessage(ticketId);
  const quick = useQuickMessages();

  // '/' followed by something opens the quick replies that match it
  const quickOpen = text.startsWith('/') && text.length > 1 && !disabled;
  const quickMatches = useMemo(() => {
    if (!quickOpen) return [];
    const term = text.slice(1).toLowerCase();
    return (quick.data ?? []).filter(
      (item) =>
        item.shortcode.toLowerCase().includes(term) || item.message.toLowerCase().includes(term),
    );
  }, [quickOpen, text, quick.data]);

  const previews = useMemo(
    () =>
      files.map((file) => ({
        file,
        url: file.type.startsWith('image/') ? URL.createObjectURL(file) : null,
      })),
    [files],
  );
  useEffect(
    () => () => {
      for (const preview of previews) if (preview.url) URL.revokeObjectURL(preview.url);
    },
    [previews],
  );

  // a recording left running when the ticket closes is thrown away
  useEffect(
    () => () => {
      discard.current = true;
      recorder.current?.stop();
    },
    [],
  );

  const changeSign = (value: boolean) => {
    setSign(value);
    localStorage.setItem(SIGN_KEY, String(value));
  };

  const submit = async (override?: { files: File[] }) => {
    const body = text.trim();
    const outgoing = override?.files ?? files;
    if (!body && outgoing.length === 0) return;
    try {
      await send.mutateAsync({ body, quotedMsg: replyingTo, signMessage: sign, files: outgoing });
      if (!override) {
        setText('');
        setFiles([]);
      }
      onCancelReply();
      onSent();
    } catch (error) {
      toastError(error);
    }
  };

  const chooseQuick = (item: QuickMessage) => {
    setText(item.message);
    setQuickIndex(0);
    input.current?.focus();
    // a reply with a file brings the file along, ready to send with the text as its caption
    const href = mediaHref(item.mediaPath);
    if (!href) return;
    fetch(href, { credentials: 'include' })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const blob = await response.blob();
        const name = item.mediaName ?? href.split('/').pop()?.split('?')[0] ?? 'arquivo';
        setFiles((current) => [...current, new File([blob], name, { type: blob.type })]);
      })
      .catch(toastError);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (quickOpen && quickMatches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setQuickIndex((index) => (index + step + quickMatches.length) % quickMatches.length);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        const item = quickMatches[quickIndex] ?? quickMatches[0];
        if (item) chooseQuick(item);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  // A photo taken with the camera joins the files like any chosen one (sent with the text).
  const addChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    if (chosen.length) setFiles((current) => [...current, ...chosen]);
    event.target.value = '';
  };

  const chooseFrom = (source: typeof fileInput) => {
    setAttachAnchor(null);
    source.current?.click();
  };

  const insertEmoji = (emoji: string) => {
    const element = input.current;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    setText(`${text.slice(0, start)}${emoji}${text.slice(end)}`);
    setEmojiAnchor(null);
  };

  const startRecording = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const next = new MediaRecorder(stream, { audioBitsPerSecond: 128_000 });
      chunks.current = [];
      discard.current = false;
      next.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.current.push(event.data);
      };
      next.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        setRecording(false);
        recorder.current = null;
        const type = (next.mimeType || 'audio/webm').split(';')[0]!;
        const blob = new Blob(chunks.current, { type });
        if (discard.current || blob.size < MIN_RECORDING_BYTES) return;
        const extension = type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';
        const file = new File([blob], `audio-${Date.now()}.${extension}`, { type });
        void submit({ files: [file] });
      };
      recorder.current = next;
      next.start();
      setRecording(true);
    } catch (error) {
      toastError(error);
    }
  };

  const stopRecording = (keep: boolean) => {
    discard.current = !keep;
    recorder.current?.stop();
  };

  return (
    <Paper
      square
      elevation={0}
      sx={{ borderTop: 1, borderColor: 'divider', p: 1, position: 'relative' }}
    >
      {replyingTo && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}
          data-testid="replying-to"
        >
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              borderLeft: 4,
              borderColor: 'primary.main',
              bgcolor: 'action.hover',
              borderRadius: 1,
              px: 1,
              py: 0.5,
            }}
          >
            <Typography variant="caption" color="text.secondary">
              {t('replyingTo')}
            </Typography>
            <Typography variant="body2" noWrap>
              {quoteText(replyingTo, t)}
            </Typography>
          </Box>
          <IconButton size="small" aria-label={t('cancelReply')} onClick={onCancelReply}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      {files.length > 0 && (
        <Box
          sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}
          aria-label={t('attachments')}
          role="list"
        >
          {previews.map(({ file, url }, index) => (
            <Box
              key={`${file.name}-${file.size}-${file.lastModified}`}
              role="listitem"
              sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
            >
              {url && (
                <Box
                  component="img"
                  src={url}
                  alt={file.name}
                  sx={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 1 }}
                />
              )}
              <Chip
                size="small"
                label={file.name}
                onDelete={() => setFiles(files.filter((_item, position) => position !== index))}
                deleteIcon={<CancelIcon aria-label={t('removeFile', { name: file.name })} />}
                sx={{ maxWidth: 200 }}
              />
            </Box>
          ))}
        </Box>
      )}
      {quickOpen && quickMatches.length > 0 && (
        <Paper
          elevation={4}
          sx={{
            position: 'absolute',
            bottom: '100%',
            left: 8,
            right: 8,
            maxHeight: 240,
            overflow: 'auto',
            zIndex: 2,
          }}
        >
          <List dense id={quickId} role="listbox" aria-label={t('quickReplies')}>
            {quickMatches.map((item, index) => (
              <ListItemButton
                key={item.id}
                role="option"
                aria-selected={index === quickIndex}
                selected={index === quickIndex}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => chooseQuick(item)}
              >
                {quickLabel(item)}
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
          <Tooltip title={t('emoji')}>
            <span>
              <IconButton
                aria-label={t('emoji')}
                disabled={disabled || recording}
                onClick={(event) => setEmojiAnchor(event.currentTarget)}
              >
                <InsertEmoticonIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
        <Tooltip title={t('attach')}>
          <span>
            <IconButton
              aria-label={t('attach')}
              disabled={disabled || recording}
              aria-haspopup={camera ? 'menu' : undefined}
              onClick={(event) =>
                camera ? setAttachAnchor(event.currentTarget) : fileInput.current?.click()
              }
            >
              <AttachFileIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Menu
          anchorEl={attachAnchor}
          open={Boolean(attachAnchor)}
          onClose={() => setAttachAnchor(null)}
        >
          <MenuItem onClick={() => chooseFrom(cameraInput)}>
            <ListItemIcon>
              <PhotoCameraIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('camera')}</ListItemText>
          </MenuItem>
          <MenuItem onClick={() => chooseFrom(fileInput)}>
            <ListItemIcon>
              <AttachFileIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('files')}</ListItemText>
          </MenuItem>
        </Menu>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label={t('attach')}
          data-testid="attach-input"
          onChange={addChosen}
        />
        {camera && (
          <input
            ref={cameraInput}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            aria-label={t('camera')}
            data-testid="camera-input"
            onChange={addChosen}
          />
        )}
        <TextField
          inputRef={input}
          multiline
          maxRows={MAX_ROWS}
          fullWidth
          size="small"
          value={text}
          disabled={disabled || recording}
          placeholder={disabled ? t('inputDisabled') : t('placeholder')}
          onChange={(event) => {
            setText(event.target.value);
            setQuickIndex(0);
          }}
          onKeyDown={onKeyDown}
          slotProps={{
            htmlInput: {
              'aria-label': t('inputLabel'),
              'aria-controls': quickOpen ? quickId : undefined,
            },
          }}
          sx={{ '& .MuiInputBase-root': { borderRadius: 3, bgcolor: 'background.default' } }}
        />
        {recording ? (
          <>
            <IconButton
              aria-label={t('recording.cancel')}
              color="error"
              onClick={() => stopRecording(false)}
            >
              <CancelIcon />
            </IconButton>
            <CircularProgress size={20} aria-label={t('recording.active')} sx={{ mb: 1 }} />
            <IconButton
              aria-label={t('recording.send')}
              color="success"
              onClick={() => stopRecording(true)}
            >
              <CheckCircleIcon />
            </IconButton>
          </>
        ) : text.trim() || files.length > 0 || !canRecord() ? (
          <IconButton
            aria-label={t('send')}
            color="primary"
            disabled={disabled || send.isPending}
            onClick={() => void submit()}
          >
            {send.isPending ? <CircularProgress size={20} /> : <SendIcon />}
          </IconButton>
        ) : (
          <IconButton
            aria-label={t('recording.start')}
            disabled={disabled}
            onClick={() => void startRecording()}
          >
            <MicIcon />
          </IconButton>
        )}
      </Box>
      <FormControlLabel
        sx={{ ml: 0.5, mt: 0.5 }}
        control={
          <Switch
            size="small"
            checked={sign}
            onChange={(event) => changeSign(event.target.checked)}
          />
        }
        label={<Typography variant="caption">{t('sign')}</Typography>}
      />
      <Popover
        open={Boolean(emojiAnchor)}
        anchorEl={emojiAnchor}
        onClose={() => setEmojiAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box
          role="group"
          aria-label={t('emoji')}
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(8, 36px)', p: 1 }}
        >
          {EMOJIS.map((emoji) => (
            <IconButton
              key={emoji}
              size="small"
              aria-label={emoji}
              onClick={() => insertEmoji(emoji)}
              sx={{ fontSize: 20 }}
            >
              {emoji}
            </IconButton>
          ))}
        </Box>
      </Popover>
    </Paper>
  );
}
