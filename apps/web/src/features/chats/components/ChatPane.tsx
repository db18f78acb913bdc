import type { Chat, ChatMessage } from '@atendi/shared';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { mediaHref } from '../../messages/api';
import { downloadHref } from '../../messages/components/MessageMedia';
import { useChatMessages, useSendChatMessage } from '../api';

/** Older messages load when the pane is scrolled within this distance of its top (spec 9). */
export const OLDER_MESSAGES_THRESHOLD_PX = 600;

interface ChatPaneProps {
  chat: Chat;
  userId: number;
}

/** A chat's messages, older ones loading as it scrolls up, and the box to write in. */
export function ChatPane({ chat, userId }: ChatPaneProps) {
  const { t } = useTranslation('chats');
  const clock = useClock();
  const query = useChatMessages(chat.id);
  const send = useSendChatMessage();
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const kept = useRef<{ height: number; top: number } | null>(null);
  const lastId = useRef<number | undefined>(undefined);

  // pages come newest first; each page's records oldest first
  const messages: ChatMessage[] = useMemo(
    () => [...(query.data?.pages ?? [])].reverse().flatMap((page) => page.records),
    [query.data],
  );

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const newest = messages.at(-1)?.id;
    if (kept.current) {
      // older messages were put above: keep the same message in view
      box.scrollTop = box.scrollHeight - kept.current.height + kept.current.top;
      kept.current = null;
    } else if (newest !== lastId.current) {
      box.scrollTop = box.scrollHeight;
    }
    lastId.current = newest;
  }, [messages]);

  const onScroll = () => {
    const box = scroller.current;
    if (!box || !query.hasNextPage || query.isFetchingNextPage) return;
    if (box.scrollTop < OLDER_MESSAGES_THRESHOLD_PX) {
      kept.current = { height: box.scrollHeight, top: box.scrollTop };
      void query.fetchNextPage();
    }
  };

  const submit = () => {
    const message = text.trim();
    if (!message) return;
    setText('');
    send.mutate({ chatId: chat.id, message }, { onError: () => setText(message) });
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={t('messagesLabel', { title: chat.title })}
        aria-live="polite"
        sx={{
          flex: 1,
          minHeight: 0,
          overflow: 'auto',
          p: 2,
          display: 'grid',
          gap: 1,
          alignContent: 'start',
        }}
      >
        {query.isFetchingNextPage && (
          <Box sx={{ display: 'flex', justifyContent: 'center' }}>
            <CircularProgress size={20} aria-label={t('common:loading')} />
          </Box>
        )}
        {query.isSuccess && messages.length === 0 && (
          <Typography color="text.secondary">{t('noMessages')}</Typography>
        )}
        {messages.map((message) => {
          const mine = message.senderId === userId;
          return (
            <Paper
              key={message.id}
              variant="outlined"
              className="chat-message"
              sx={{
                p: 1,
                px: 1.5,
                maxWidth: '80%',
                justifySelf: mine ? 'end' : 'start',
                bgcolor: mine ? 'action.selected' : 'background.paper',
              }}
            >
              <Typography variant="caption" color="text.secondary" component="p">
                {message.sender?.name ?? t('formerUser')}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {message.message}
              </Typography>
              {message.mediaPath && (
                <Link
                  href={downloadHref(mediaHref(message.mediaPath)!, message.mediaName ?? t('file'))}
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
                >
                  <AttachFileIcon fontSize="small" aria-hidden />
                  {message.mediaName ?? t('file')}
                </Link>
              )}
              <Typography
                variant="caption"
                color="text.secondary"
                component="p"
                sx={{ textAlign: 'right' }}
              >
                {clock.shortDateTime(message.createdAt)}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        sx={{ display: 'flex', gap: 1, p: 1, borderTop: 1, borderColor: 'divider' }}
      >
        <TextField
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
          placeholder={t('input.placeholder')}
          slotProps={{ htmlInput: { 'aria-label': t('input.label') } }}
          multiline
          maxRows={5}
          fullWidth
          size="small"
        />
        <IconButton
          type="submit"
          color="primary"
          aria-label={t('input.send')}
          disabled={!text.trim()}
        >
          <SendIcon />
        </IconButton>
      </Box>
    </Box>
  );
}
