import type { Chat } from '@atendi/shared';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { PageHeader } from '../../../app/components/PageHeader';
import { useChat, useChats, useDeleteChat, useMarkChatRead } from '../api';
import { unreadsOf } from '../chats.cache';
import { ChatDialog } from '../components/ChatDialog';
import { ChatList } from '../components/ChatList';
import { ChatPane } from '../components/ChatPane';

type DialogState = { kind: 'new' } | { kind: 'edit'; chat: Chat } | null;

/**
 * Internal chat (spec administration 2): the chats on the left with their unread badges, the
 * open chat's messages on the right; two tabs, Chats and Mensagens, on narrow screens.
 */
export function ChatsPage() {
  const { t } = useTranslation('chats');
  const me = useSessionUser();
  const navigate = useNavigate();
  const { uuid } = useParams();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const list = useChats();
  const remove = useDeleteChat();
  const markRead = useMarkChatRead();

  const chats = useMemo(() => list.data?.pages.flatMap((page) => page.records) ?? [], [list.data]);
  const listed = uuid ? chats.find((chat) => chat.uuid === uuid) : undefined;
  const fetched = useChat(uuid && list.isSuccess && !listed ? uuid : undefined);
  const selected = listed ?? fetched.data;

  // a chat that is gone, or was never ours, leaves its address
  useEffect(() => {
    if (uuid && fetched.isError) void navigate('/chats', { replace: true });
  }, [uuid, fetched.isError, navigate]);

  // the open chat's unread count is cleared, also when a message arrives while it is open
  const unreads = selected ? unreadsOf(selected, me.id) : 0;
  const { mutate: markAsRead } = markRead;
  const selectedId = selected?.id;
  const showing = !narrow || tab === 'messages';
  useEffect(() => {
    if (selectedId !== undefined && unreads > 0 && showing) {
      markAsRead({ chatId: selectedId, userId: me.id });
    }
  }, [selectedId, unreads, showing, markAsRead, me.id]);

  const open = (chat: Chat) => {
    setTab('messages');
    void navigate(`/chats/${chat.uuid}`);
  };

  const chatList = (
    <ChatList
      chats={chats}
      userId={me.id}
      selectedId={selected?.id}
      onOpen={open}
      onEdit={(chat) => setDialog({ kind: 'edit', chat })}
      onDelete={setDeleting}
      onScrollEnd={() => {
        if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
      }}
    />
  );
  const pane = selected ? (
    <ChatPane key={selected.id} chat={selected} userId={me.id} />
  ) : (
    <Typography color="text.secondary" sx={{ p: 2 }}>
      {t('choose')}
    </Typography>
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
      <PageHeader title={t('title')}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setDialog({ kind: 'new' })}
        >
          {t('actions.new')}
        </Button>
      </PageHeader>
      {narrow ? (
        <Paper
          variant="outlined"
          sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
        >
          <Tabs value={tab} onChange={(_event, value) => setTab(value)} variant="fullWidth">
            <Tab
              value="chats"
              label={t('tabs.chats')}
              id="chats-tab-chats"
              aria-controls="chats-panel"
            />
            <Tab
              value="messages"
              label={t('tabs.messages')}
              id="chats-tab-messages"
              aria-controls="chats-panel"
            />
          </Tabs>
          <Box
            id="chats-panel"
            role="tabpanel"
            aria-labelledby={`chats-tab-${tab}`}
            sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
          >
            {tab === 'chats' ? chatList : pane}
          </Box>
        </Paper>
      ) : (
        <Box sx={{ display: 'flex', gap: 2, flex: 1, minHeight: 0 }}>
          <Paper
            variant="outlined"
            component="section"
            aria-label={t('tabs.chats')}
            sx={{ width: 340, flexShrink: 0, display: 'flex', flexDirection: 'column' }}
          >
            {chatList}
          </Paper>
          <Paper
            variant="outlined"
            component="section"
            aria-label={selected ? selected.title : t('tabs.messages')}
            sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}
          >
            {selected && (
              <Typography
                variant="h6"
                component="h2"
                sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
              >
                {selected.title}
              </Typography>
            )}
            {pane}
          </Paper>
        </Box>
      )}
      {dialog && (
        <ChatDialog
          open
          chat={dialog.kind === 'edit' ? dialog.chat : undefined}
          onClose={() => setDialog(null)}
          onSaved={(chat) => {
            if (dialog.kind === 'new') open(chat);
          }}
        />
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('delete.title', { title: deleting?.title ?? '' })}
        message={t('delete.message')}
        confirmLabel={t('common:actions.delete')}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          const chat = deleting;
          if (!chat) return;
          remove.mutate(chat.id, {
            onSuccess: () => {
              setDeleting(null);
              if (chat.id === selected?.id) void navigate('/chats', { replace: true });
            },
          });
        }}
      />
    </Box>
  );
}
