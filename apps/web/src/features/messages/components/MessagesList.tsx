import { MESSAGE_LIST_SCROLL_THRESHOLD_PX, type Message, type Ticket } from '@atendi/shared';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInZone, useClock } from '../../../app/clock';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { VirtualList } from '../../../app/list/VirtualList';
import { flattenMessages, type MessagesData, useDeleteMessage, useMessages } from '../api';
import { MessageBubble } from './MessageBubble';

/** What is drawn with a message: the day it starts, where one ticket ended and the next began. */
type Mark = { kind: 'day'; label: string } | { kind: 'closed' } | { kind: 'started' };

/**
 * A message with the marks drawn above (and, for the last one of a closed ticket, below) it.
 * The marks live in the message's row so that every row is keyed by its message's id alone:
 * when an older page arrives, the day mark moves to an older row but no row changes its key,
 * and the row the reader sees stays where it is.
 */
export interface Row {
  key: number;
  message: Message;
  before: Mark[];
  after: Mark[];
}

/** dd/MM/yyyy of the day the message was written, on the company's clock. */
export const dayOf = (value: string, zone: string): string =>
  formatInZone(value, zone, 'dd/MM/yyyy');

/**
 * The conversation as rows: a day mark at each new day, and 'Conversa encerrada' /
 * 'Conversa iniciada' where the messages pass from one ticket to another.
 */
export function buildRows(
  messages: readonly Message[],
  zone: string,
  ticket?: Pick<Ticket, 'status'>,
): Row[] {
  const rows: Row[] = [];
  let day = '';
  let previous: Row | undefined;
  for (const message of messages) {
    const row: Row = { key: message.id, message, before: [], after: [] };
    if (previous && previous.message.ticketId !== message.ticketId) {
      row.before.push({ kind: 'closed' }, { kind: 'started' });
    }
    const messageDay = dayOf(message.createdAt, zone);
    if (messageDay !== day) {
      day = messageDay;
      row.before.push({ kind: 'day', label: messageDay });
    }
    rows.push(row);
    previous = row;
  }
  if (previous && ticket?.status === 'closed') previous.after.push({ kind: 'closed' });
  return rows;
}

const rowKey = (row: Row) => row.key;

interface MessagesListProps {
  ticket: Ticket;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  bottomSignal?: number;
  onForward?: (message: Message) => void;
  /** The messages chosen to forward; absent while none are being chosen. */
  selection?: ReadonlySet<number>;
  onToggleSelect?: (message: Message) => void;
}

export function MessagesList(props: MessagesListProps) {
  const { ticket, readOnly, onReply, bottomSignal, onForward, selection, onToggleSelect } = props;
  const { t } = useTranslation('messages');
  const query = useMessages(ticket.id);
  const remove = useDeleteMessage();
  const [deleting, setDeleting] = useState<Message | null>(null);
  const data = query.data as MessagesData | undefined;
  const { zone } = useClock();
  const rows = useMemo(() => buildRows(flattenMessages(data), zone, ticket), [data, zone, ticket]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  // One page per request: the reader scrolling to the top asks for the older page, and the
  // list keeps the row in view when it arrives, so the next page waits for the next scroll up.
  const onScroll = useCallback(
    (element: HTMLDivElement) => {
      if (!hasNextPage || isFetchingNextPage) return;
      if (element.scrollTop <= MESSAGE_LIST_SCROLL_THRESHOLD_PX) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
  // rows that do not fill the pane cannot be scrolled: load until they do
  const onRowsChange = useCallback(
    (element: HTMLDivElement) => {
      if (!hasNextPage || isFetchingNextPage || element.clientHeight === 0) return;
      if (element.scrollHeight <= element.clientHeight) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );

  const renderMark = useCallback(
    (mark: Mark, index: number) => (
      <Box key={index} sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
        {mark.kind === 'day' ? (
          <Chip
            size="small"
            label={mark.label}
            sx={{ bgcolor: 'background.paper', boxShadow: 1 }}
          />
        ) : (
          <Chip
            size="small"
            color={mark.kind === 'closed' ? 'default' : 'primary'}
            label={mark.kind === 'closed' ? t('markers.closed') : t('markers.started')}
          />
        )}
      </Box>
    ),
    [t],
  );

  const renderItem = useCallback(
    (row: Row) => (
      <>
        {row.before.map(renderMark)}
        <MessageBubble
          message={row.message}
          showAuthor={ticket.isGroup && !row.message.fromMe}
          readOnly={readOnly}
          onReply={onReply}
          onDelete={setDeleting}
          onForward={onForward}
          selected={selection ? selection.has(row.message.id) : undefined}
          onToggleSelect={onToggleSelect}
        />
        {row.after.map(renderMark)}
      </>
    ),
    [ticket.isGroup, readOnly, onReply, renderMark, onForward, selection, onToggleSelect],
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
        onRowsChange={onRowsChange}
        stickToBottom
        bottomSignal={bottomSignal}
        padding={8}
        ariaLabel={t('listLabel')}
        testId="messages-scroller"
        footer={
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
