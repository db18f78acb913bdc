import { hasRole, type Message, type Ticket } from '@atendi/shared';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EventIcon from '@mui/icons-material/Event';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useSessionUser } from '../../../app/auth';
import { ConfirmDialog } from '../../../app/components/ConfirmDialog';
import { canAccess } from '../../../app/layout/menu';
import { toast } from '../../../app/toast';
import { mediaHref } from '../../messages/api';
import { MessageInput } from '../../messages/components/MessageInput';
import { MessagesList } from '../../messages/components/MessagesList';
import { useDeleteTicket, useUpdateTicket } from '../api';
import { ContactDrawer } from './ContactDrawer';
import { ForwardDialog } from './ForwardDialog';
import { TagsEditor } from './TagsEditor';
import { TransferDialog } from './TransferDialog';

interface ConversationProps {
  ticket: Ticket;
  onBack?: () => void;
  /** After a return, resolve, transfer away or delete: the screen goes back to /tickets. */
  onLeave: () => void;
}

export function Conversation({ ticket, onBack, onLeave }: ConversationProps) {
  const { t } = useTranslation('tickets');
  const me = useSessionUser();
  const admin = hasRole(me, 'admin');
  // The plan switches schedules on (useSchedules); the action leads to the schedule dialog.
  const schedules = canAccess(me, { permission: 'schedules:use' });
  const scheduleLink = `/schedules?contactId=${ticket.contactId}`;
  const narrow = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const update = useUpdateTicket();
  const remove = useDeleteTicket();
  const [replyingTo, setReplyingTo] = useState<Message | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [more, setMore] = useState<HTMLElement | null>(null);
  const [bottomSignal, setBottomSignal] = useState(0);
  // The messages chosen to forward (null: not choosing), and whether their target is asked.
  const [selection, setSelection] = useState<ReadonlySet<number> | null>(null);
  const [forwarding, setForwarding] = useState(false);
  const navigate = useNavigate();
  const startForward = useCallback((message: Message) => setSelection(new Set([message.id])), []);
  const toggleSelect = useCallback(
    (message: Message) =>
      setSelection((current) => {
        const next = new Set(current);
        if (!next.delete(message.id)) next.add(message.id);
        return next;
      }),
    [],
  );
  const name = ticket.contact?.name ?? '';

  const change = async (data: Parameters<typeof update.mutateAsync>[0]['data'], leave: boolean) => {
    try {
      await update.mutateAsync({ id: ticket.id, data });
      if (leave) onLeave();
    } catch {
      // the query client already showed the error
    }
  };

  const accept = () => change({ status: 'open', userId: me.id, queueId: ticket.queueId }, false);
  const giveBack = () => change({ status: 'pending', userId: null, queueId: ticket.queueId }, true);
  const resolve = () =>
    change(
      {
        status: 'closed',
        userId: ticket.userId ?? me.id,
        queueId: ticket.queueId,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      },
      true,
    );
  const reopen = () => change({ status: 'open', userId: me.id, queueId: ticket.queueId }, false);

  const actions: {
    key: string;
    label: string;
    onClick: () => void;
    color?: 'success' | 'primary';
  }[] = [];
  if (ticket.status === 'pending') {
    actions.push({ key: 'accept', label: t('actions.accept'), onClick: accept, color: 'success' });
  }
  if (ticket.status === 'open') {
    // resolving is what agents do most: first, and the one button a phone shows
    actions.push({
      key: 'resolve',
      label: t('actions.resolve'),
      onClick: resolve,
      color: 'success',
    });
    actions.push({ key: 'return', label: t('actions.return'), onClick: giveBack });
  }
  if (ticket.status === 'closed') {
    actions.push({ key: 'reopen', label: t('actions.reopen'), onClick: reopen, color: 'primary' });
  }

  const subtitle = [
    ticket.user ? t('header.assignedTo', { name: ticket.user.name }) : t(`status.${ticket.status}`),
    ticket.queue?.name,
    ticket.whatsapp?.name,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <Paper
      variant="outlined"
      sx={{
        height: '100%',
        minHeight: 0,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
      }}
      aria-label={t('conversation.label', { name })}
      component="section"
    >
      <Box
        component="header"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: 1,
          py: 0.75,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        {onBack && (
          <IconButton aria-label={t('header.back')} onClick={onBack} size="small">
            <ArrowBackIcon />
          </IconButton>
        )}
        <ButtonBase
          onClick={() => setDrawer(true)}
          title={t('header.openContact', { name })}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            flex: 1,
            minWidth: 0,
            justifyContent: 'flex-start',
            textAlign: 'left',
            borderRadius: 1,
          }}
        >
          <Avatar src={mediaHref(ticket.contact?.profilePicUrl ?? null)} alt={name}>
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography noWrap sx={{ fontWeight: 600 }} component="h2">
              {name}
            </Typography>
            <Typography noWrap variant="caption" color="text.secondary" component="p">
              {subtitle}
            </Typography>
          </Box>
        </ButtonBase>
        {!narrow &&
          actions.map((action) => (
            <Button
              key={action.key}
              size="small"
              variant={action.color ? 'contained' : 'outlined'}
              color={action.color ?? 'inherit'}
              disabled={update.isPending}
              onClick={action.onClick}
            >
              {action.label}
            </Button>
          ))}
        {narrow && actions[0] && (
          <Button
            size="small"
            variant="contained"
            color={actions[0].color ?? 'primary'}
            disabled={update.isPending}
            onClick={actions[0].onClick}
          >
            {actions[0].label}
          </Button>
        )}
        {!narrow && schedules && (
          <Tooltip title={t('actions.schedule')}>
            <IconButton
              component={RouterLink}
              to={scheduleLink}
              aria-label={t('actions.schedule')}
              size="small"
            >
              <EventIcon />
            </IconButton>
          </Tooltip>
        )}
        <IconButton
          aria-label={t('actions.more')}
          aria-haspopup="menu"
          size="small"
          onClick={(event) => setMore(event.currentTarget)}
        >
          <MoreVertIcon />
        </IconButton>
        <Menu anchorEl={more} open={Boolean(more)} onClose={() => setMore(null)}>
          {narrow &&
            actions.slice(1).map((action) => (
              <MenuItem
                key={action.key}
                onClick={() => {
                  setMore(null);
                  action.onClick();
                }}
              >
                {action.label}
              </MenuItem>
            ))}
          {narrow && schedules && (
            <MenuItem component={RouterLink} to={scheduleLink} onClick={() => setMore(null)}>
              {t('actions.schedule')}
            </MenuItem>
          )}
          <MenuItem
            onClick={() => {
              setMore(null);
              setTransferring(true);
            }}
          >
            {t('actions.transfer')}
          </MenuItem>
          <MenuItem
            onClick={() => {
              setMore(null);
              setDrawer(true);
            }}
          >
            {t('contactDrawer.title')}
          </MenuItem>
          {admin && (
            <MenuItem
              onClick={() => {
                setMore(null);
                setDeleting(true);
              }}
              sx={{ color: 'error.main' }}
            >
              <DeleteOutlineIcon fontSize="small" sx={{ mr: 1 }} />
              {t('actions.delete')}
            </MenuItem>
          )}
        </Menu>
      </Box>
      <TagsEditor ticket={ticket} />
      <MessagesList
        key={ticket.id}
        ticket={ticket}
        onReply={setReplyingTo}
        bottomSignal={bottomSignal}
        onForward={startForward}
        selection={selection ?? undefined}
        onToggleSelect={toggleSelect}
      />
      {selection ? (
        <Box
          role="toolbar"
          aria-label={t('messages:forward.toolbar')}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            p: 1,
            borderTop: 1,
            borderColor: 'divider',
          }}
        >
          <Typography sx={{ flex: 1 }} role="status">
            {t('messages:forward.selected', { count: selection.size })}
          </Typography>
          <Button onClick={() => setSelection(null)}>{t('common:actions.cancel')}</Button>
          <Button
            variant="contained"
            disabled={selection.size === 0}
            onClick={() => setForwarding(true)}
          >
            {t('messages:forward.action')}
          </Button>
        </Box>
      ) : (
        <MessageInput
          key={ticket.id}
          ticketId={ticket.id}
          disabled={ticket.status !== 'open'}
          replyingTo={replyingTo}
          onCancelReply={() => setReplyingTo(null)}
          onSent={() => setBottomSignal((value) => value + 1)}
        />
      )}
      {forwarding && selection && (
        <ForwardDialog
          open
          messageIds={[...selection]}
          fromTicketId={ticket.id}
          onClose={() => setForwarding(false)}
          onDone={(target) => {
            setForwarding(false);
            setSelection(null);
            toast.success(t('messages:forward.done', { count: selection.size }));
            if (target.id !== ticket.id) void navigate(`/tickets/${target.uuid}`);
          }}
        />
      )}
      <ContactDrawer ticket={ticket} open={drawer} onClose={() => setDrawer(false)} />
      {transferring && (
        <TransferDialog
          ticket={ticket}
          open
          onClose={() => setTransferring(false)}
          onDone={(moved) => {
            setTransferring(false);
            toast.success(t('transfer.done'));
            if (moved.userId !== me.id) onLeave();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting}
        title={t('delete.title', { name })}
        message={t('delete.message')}
        confirmLabel={t('actions.delete')}
        busy={remove.isPending}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(ticket.id);
            toast.success(t('delete.done'));
            setDeleting(false);
            onLeave();
          } catch {
            setDeleting(false);
          }
        }}
        onClose={() => setDeleting(false)}
      />
    </Paper>
  );
}
