import { ACK } from '@atendi/shared';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayInZone, fromZoneInput, useClock } from '../../../app/clock';
import { FormDialog } from '../../../app/components/FormDialog';
import { errorMessage } from '../../../app/errors';
import { toast } from '../../../app/toast';
import {
  type SimulatorMessage,
  type SimulatorPhone,
  useChangeOwnMessage,
  useConversation,
  useMarkRead,
} from '../api';
import { Composer } from './Composer';
import { type MessageActions, MessageBubble } from './MessageBubble';

function useDayLabel() {
  const { t } = useTranslation('simulator');
  const clock = useClock();
  return (value: string) => {
    const day = dayInZone(value, clock.zone);
    const now = Date.now();
    if (day === dayInZone(now, clock.zone)) return t('chat.today');
    // a day before on the company's clock: noon of today less a day falls on it whatever DST does
    const todayNoon = fromZoneInput(`${dayInZone(now, clock.zone)}T12:00`, clock.zone)!;
    if (day === dayInZone(new Date(todayNoon).getTime() - 86_400_000, clock.zone)) {
      return t('chat.yesterday');
    }
    return clock.date(value);
  };
}

/** The phone read what the company sent as soon as it is on screen (and the tab is seen). */
function useReadReceipts(
  connectionId: number,
  phone: string,
  messages: readonly SimulatorMessage[],
) {
  const markRead = useMarkRead(connectionId, phone);
  const unread = messages.some(
    (m) => m.direction === 'outbound' && m.ack < ACK.read && !m.isDeleted,
  );
  const { mutate, isPending } = markRead;
  useEffect(() => {
    if (!unread || isPending) return;
    const read = () => {
      if (document.visibilityState === 'visible') mutate(ACK.read);
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [unread, isPending, mutate]);
}

interface ChatPaneProps {
  connectionId: number;
  phone: SimulatorPhone;
  onBack?: () => void;
}

export function ChatPane({ connectionId, phone, onBack }: ChatPaneProps) {
  const { t } = useTranslation('simulator');
  const conversation = useConversation(connectionId, phone.phone);
  const messages = conversation.data ?? [];
  const dayLabel = useDayLabel();
  const { zone } = useClock();
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const log = useRef<HTMLDivElement>(null);
  useReadReceipts(connectionId, phone.phone, messages);
  const name = phone.name || phone.phone;
  const [replyTo, setReplyTo] = useState<SimulatorMessage | null>(null);
  const [editing, setEditing] = useState<SimulatorMessage | null>(null);
  const [draft, setDraft] = useState('');
  const change = useChangeOwnMessage(connectionId, phone.phone);
  const byProviderId = useMemo(
    () => new Map(messages.map((message) => [message.providerMessageId, message])),
    [messages],
  );

  const changeOwn = async (id: number, body?: string) => {
    try {
      await change.mutateAsync({ id, body });
      return true;
    } catch (failure) {
      toast.error(errorMessage(failure));
      return false;
    }
  };
  const actions: MessageActions = {
    onReply: setReplyTo,
    onEdit: (message) => {
      setDraft(message.body);
      setEditing(message);
    },
    onDelete: (message) => void changeOwn(message.id),
  };
  const saveEdit = async () => {
    const body = draft.trim();
    if (!editing || !body) return;
    if (await changeOwn(editing.id, body)) setEditing(null);
  };

  // follow new messages unless the person scrolled up to read older ones
  const lastId = messages.at(-1)?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message arrives
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [lastId]);

  // an image grows once loaded, and the composer's reply bar shrinks the pane: keep the newest
  // message in view while the person reads the end
  useEffect(() => {
    const element = scroller.current;
    const content = log.current;
    if (!element || !content || typeof ResizeObserver === 'undefined') return;
    const follow = new ResizeObserver(() => {
      if (stick.current) element.scrollTop = element.scrollHeight;
    });
    follow.observe(element);
    follow.observe(content);
    return () => follow.disconnect();
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Box
        sx={(theme) => ({
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: 1.5,
          py: 1,
          bgcolor: theme.palette.mode === 'dark' ? '#202c33' : '#f0f2f5',
          borderBottom: 1,
          borderColor: 'divider',
        })}
      >
        {onBack && (
          <IconButton aria-label={t('chat.back')} onClick={onBack} edge="start" size="small">
            <ArrowBackIcon />
          </IconButton>
        )}
        <Avatar sx={{ width: 36, height: 36 }} aria-hidden>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" component="h2" noWrap>
            {name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            +{phone.phone}
          </Typography>
        </Box>
      </Box>
      {conversation.isError && (
        <Alert severity="warning" sx={{ borderRadius: 0 }}>
          {t('chat.loadFailed')}
        </Alert>
      )}
      <Box
        ref={scroller}
        onScroll={onScroll}
        sx={(theme) => ({
          flex: 1,
          minHeight: 0,
          overflowY: 'auto',
          py: 1,
          bgcolor: theme.palette.mode === 'dark' ? '#0b141a' : '#efeae2',
        })}
      >
        <Box ref={log} role="log" aria-label={t('chat.messages', { name })} aria-live="polite">
          <Box component="ol" sx={{ m: 0, p: 0 }}>
            {messages.map((message, index) => {
              const previous = messages[index - 1];
              const newDay =
                !previous ||
                dayInZone(previous.createdAt, zone) !== dayInZone(message.createdAt, zone);
              return (
                <Fragment key={message.id}>
                  {newDay && (
                    <Box
                      component="li"
                      sx={{ listStyle: 'none', display: 'flex', justifyContent: 'center', my: 1 }}
                    >
                      <Typography
                        variant="caption"
                        sx={(theme) => ({
                          px: 1.5,
                          py: 0.5,
                          borderRadius: 2,
                          bgcolor: theme.palette.mode === 'dark' ? '#182229' : '#ffffff',
                          color: 'text.secondary',
                          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
                        })}
                      >
                        {dayLabel(message.createdAt)}
                      </Typography>
                    </Box>
                  )}
                  <MessageBubble
                    message={message}
                    quoted={
                      message.quotedProviderMessageId
                        ? byProviderId.get(message.quotedProviderMessageId)
                        : undefined
                    }
                    actions={actions}
                  />
                </Fragment>
              );
            })}
          </Box>
        </Box>
        {!conversation.isPending && messages.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', mt: 4 }}>
            {t('chat.empty')}
          </Typography>
        )}
      </Box>
      <Composer
        connectionId={connectionId}
        phone={phone}
        replyTo={replyTo}
        onReplyDone={() => setReplyTo(null)}
      />
      <FormDialog
        maxWidth="xs"
        fullScreenOnPhone={false}
        open={editing !== null}
        title={t('chat.editTitle')}
        submitLabel={t('chat.save')}
        onSubmit={() => void saveEdit()}
        onClose={() => setEditing(null)}
      >
        <TextField
          id="simulator-edit"
          label={t('chat.editLabel')}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          multiline
          autoFocus
          slotProps={{ htmlInput: { maxLength: 4096 } }}
        />
      </FormDialog>
    </Box>
  );
}
