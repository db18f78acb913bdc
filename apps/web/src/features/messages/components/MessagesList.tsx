import { MESSAGE_LIST_SCROLL_THRESHOLD_PX, type Message, type Ticket } from '@atendi/shared';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { VirtualList } from '../../tickets/components/VirtualList';
import { flattenMessages, type MessagesData, useDeleteMessage, useMessages } from '../api';
import { MessageBubble } from './MessageBubble';

type Row =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'marker'; key: string; label: 'closed' | 'started' }
  | { kind: 'message'; key: number; message: Message };

const two = (value: number) => String(value).padStart(2, '0');

/** dd/MM/yyyy of the day the message was written, in the browser's time zone. */
export function dayOf(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/**
 * The conversation as rows: a separator at each new day, and 'Conversa encerrada' /
 * 'Conversa iniciada' where the messages pass from one ticket to another.
 */
export function buildRows(messages: readonly Message[], ticket?: Pick<Ticket, 'status'>): Row[] {
  const rows: Row[] = [];
  let day = '';
  let previous: Message | undefined;
  for (const message of messages) {
    const messageDay = dayOf(message.createdAt);
    if (previous && previous.ticketId !== message.ticketId) {
      rows.push({ kind: 'marker', key: `closed-${previous.id}`, label: 'closed' });
      rows.push({ kind: 'marker', key: `started-${message.id}`, label: 'started' });
    }
    if (messageDay !== day) {
      day = messageDay;
      rows.push({ kind: 'day', key: `day-${message.id}`, label: messageDay });
    }
    rows.push({ kind: 'message', key: message.id, message });
    previous = message;
  }
  if (previous && ticket?.status === 'closed') {
    rows.push({ kind: 'marker', key: `closed-${previous.id}`, label: 'closed' });
  }
  return rows;
}

const rowKey = (row: Row) => row.key;

interface MessagesListProps {
  ticket: Ticket;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  bottomSignal?: number;
}

export function MessagesList({ ticket, readOnly, onReply, bottomSignal }: MessagesListProps) {
  const { t } = useTranslation('messages');
  const query = useMessages(ticket.id);
  const remove = useDeleteMessage();
  const [deleting, setDeleting] = useState<Message | null>(null);
  const data = query.data as MessagesData | undefined;
  const rows = useMemo(() => buildRows(flattenMessages(data), ticket), [data, ticket]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  const onScroll = useCallback(
    (element: HTMLDivElement) => {
      if (!hasNextPage || isFetchingNextPage) return;
      if (element.scrollTop <= MESSAGE_LIST_SCROLL_THRESHOLD_PX) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );

  const renderItem = useCallback(
    (row: Row) => {
      if (row.kind === 'day') {
        return (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
            <Chip
              size="small"
              label={row.label}
              sx={{ bgcolor: 'background.paper', boxShadow: 1 }}
            />
          </Box>
        );
      }
      if (row.kind === 'marker') {
        return (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
            <Chip
              size="small"
              color={row.label === 'closed' ? 'default' : 'primary'}
              label={row.label === 'closed' ? t('markers.closed') : t('markers.started')}
            />
          </Box>
        );
      }
      return (
        <MessageBubble
          message={row.message}
          showAuthor={ticket.isGroup && !row.message.fromMe}
          readOnly={readOnly}
          onReply={onReply}
          onDelete={setDeleting}
        />
      );
    },
    [ticket.isGroup, readOnly, onReply, t],
  );

  return (
    <Box
      sx={{
        flex: 1,
        minHeight: 0,
        display: 'flex',
        flexDirection: 'column',
        bgcolor: (theme) => (theme.palette.mode === 'dark' ? 'grey.900' : '#efeae2'),
      }}
    >
      {(query.isLoading || isFetchingNextPage) && (
        <LinearProgress aria-label={t('common:loading')} />
      )}
      <VirtualList
        items={rows}
        itemKey={rowKey}
        estimateSize={64}
        renderItem={renderItem}
        onScroll={onScroll}
        onRowsChange={onScroll}
        stickToBottom
        bottomSignal={bottomSignal}
        ariaLabel={t('listLabel')}
        testId="messages-scroller"
        sx={{ py: 1 }}
        header={
          !hasNextPage && !query.isLoading && rows.length === 0 ? (
            <Typography color="text.secondary" sx={{ textAlign: 'center', p: 3 }}>
              {query.isError ? t('common:errors.listFailed') : t('empty')}
            </Typography>
          ) : null
        }
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title')}
        message={t('confirmDelete.message')}
        confirmLabel={t('menu.delete')}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
