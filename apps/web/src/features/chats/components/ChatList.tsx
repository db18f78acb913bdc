import type { Chat } from '@atendi/shared';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { unreadsOf } from '../chats.cache';

interface ChatListProps {
  chats: Chat[];
  userId: number;
  selectedId?: number;
  onOpen: (chat: Chat) => void;
  onEdit: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
  onScrollEnd?: () => void;
}

/** The chats, each with its unread badge; only a chat's owner sees edit and delete. */
export function ChatList(props: ChatListProps) {
  const { chats, userId, selectedId, onOpen, onEdit, onDelete, onScrollEnd } = props;
  const { t } = useTranslation('chats');
  const clock = useClock();
  if (chats.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {t('empty')}
      </Typography>
    );
  }
  return (
    <List
      dense
      aria-label={t('listLabel')}
      sx={{ overflow: 'auto', flex: 1, minHeight: 0 }}
      onScroll={(event) => {
        const box = event.currentTarget;
        if (box.scrollHeight - box.scrollTop - box.clientHeight < 100) onScrollEnd?.();
      }}
    >
      {chats.map((chat) => {
        const unreads = unreadsOf(chat, userId);
        const owner = chat.ownerId === userId;
        return (
          <ListItem
            key={chat.id}
            disablePadding
            secondaryAction={
              owner ? (
                <Box sx={{ display: 'flex' }}>
                  <IconButton
                    size="small"
                    aria-label={t('actions.edit', { title: chat.title })}
                    onClick={() => onEdit(chat)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('actions.delete', { title: chat.title })}
                    onClick={() => onDelete(chat)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Box>
              ) : undefined
            }
            sx={owner ? { '& .MuiListItemButton-root': { pr: 11 } } : undefined}
          >
            <ListItemButton
              selected={chat.id === selectedId}
              aria-current={chat.id === selectedId ? 'true' : undefined}
              onClick={() => onOpen(chat)}
            >
              <ListItemText
                primary={
                  <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                    <Box component="span" sx={{ fontWeight: unreads ? 700 : 500 }}>
                      {chat.title}
                    </Box>
                    <Badge
                      color="secondary"
                      badgeContent={unreads}
                      aria-label={unreads ? t('unreads', { count: unreads }) : undefined}
                      sx={{ ml: 1 }}
                    />
                  </Box>
                }
                secondary={
                  <>
                    <Box component="span" sx={{ display: 'block' }} className="chat-last-message">
                      {chat.lastMessage || t('noMessages')}
                    </Box>
                    <Box component="span" sx={{ fontSize: '0.7rem' }}>
                      {clock.shortDateTime(chat.updatedAt)}
                    </Box>
                  </>
                }
                slotProps={{ secondary: { noWrap: true } }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
