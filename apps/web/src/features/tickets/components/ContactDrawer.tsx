import type { Ticket } from '@atendi/shared';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from '../../../app/clock';
import { toast } from '../../../app/toast';
import { useContact } from '../../contacts/api';
import { mediaHref } from '../../messages/api';
import { useAddNote, useDeleteNote, useTicketNotes } from '../api';

interface ContactDrawerProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
}

/** The contact's details and the ticket's internal notes. */
export function ContactDrawer({ ticket, open, onClose }: ContactDrawerProps) {
  const { t } = useTranslation('tickets');
  const clock = useClock();
  const titleId = useId();
  const contact = useContact(open ? ticket.contactId : undefined);
  const notes = useTicketNotes(ticket.id, ticket.contactId);
  const addNote = useAddNote();
  const deleteNote = useDeleteNote(ticket.id);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const details = contact.data;

  const add = async () => {
    const text = note.trim();
    if (text.length < 2) {
      setNoteError(
        text.length === 0 ? t('common:validation.required') : t('common:validation.tooShort'),
      );
      return;
    }
    setNoteError(null);
    try {
      await addNote.mutateAsync({ note: text, ticketId: ticket.id, contactId: ticket.contactId });
      setNote('');
      toast.success(t('notes.added'));
    } catch {
      // the query client already showed the error
    }
  };

  const remove = async (id: number) => {
    try {
      await deleteNote.mutateAsync(id);
      toast.success(t('notes.deleted'));
    } catch {
      // the query client already showed the error
    }
  };

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // in front of the app bar (which sits over the side menu): its title and close button show
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: { sx: { width: { xs: '100%', sm: 360 } }, 'aria-labelledby': titleId } as object,
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          p: 1,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography id={titleId} variant="h6" sx={{ flex: 1, pl: 1 }}>
          {t('contactDrawer.title')}
        </Typography>
        <IconButton aria-label={t('common:actions.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }}>
        <Avatar
          src={mediaHref(ticket.contact.profilePicUrl)}
          alt={ticket.contact.name}
          sx={{ width: 96, height: 96 }}
        />
        <Typography variant="h6" sx={{ wordBreak: 'break-word', textAlign: 'center' }}>
          {ticket.contact.name}
        </Typography>
        <Typography component="a" href={`tel:${ticket.contact.number}`} color="primary">
          {ticket.contact.number}
        </Typography>
        {details?.email && (
          <Typography
            component="a"
            href={`mailto:${details.email}`}
            color="primary"
            sx={{ wordBreak: 'break-all' }}
          >
            {details.email}
          </Typography>
        )}
      </Box>
      {details && details.extraInfo.length > 0 && (
        <>
          <Divider />
          <Box sx={{ p: 2 }}>
            <Typography variant="subtitle2" gutterBottom>
              {t('contactDrawer.extraInfo')}
            </Typography>
            {details.extraInfo.map((info) => (
              <Box key={`${info.name}:${info.value}`} sx={{ mb: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  {info.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {info.value}
                </Typography>
              </Box>
            ))}
          </Box>
        </>
      )}
      <Divider />
      <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Typography variant="subtitle2">{t('notes.title')}</Typography>
        <TextField
          multiline
          minRows={2}
          maxRows={6}
          size="small"
          label={t('notes.new')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          error={Boolean(noteError)}
          helperText={noteError ?? undefined}
        />
        <Button
          variant="contained"
          size="small"
          onClick={add}
          disabled={addNote.isPending}
          sx={{ alignSelf: 'flex-end' }}
        >
          {t('notes.add')}
        </Button>
        <List dense aria-label={t('notes.title')}>
          {(notes.data ?? []).map((item) => (
            <ListItem
              key={item.id}
              divider
              secondaryAction={
                <IconButton
                  edge="end"
                  size="small"
                  aria-label={t('notes.delete')}
                  onClick={() => void remove(item.id)}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText
                primary={item.note}
                secondary={[item.user?.name, clock.shortDateTime(item.createdAt)]
                  .filter(Boolean)
                  .join(' · ')}
                slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
          {notes.data?.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('notes.empty')}
            </Typography>
          )}
        </List>
      </Box>
    </Drawer>
  );
}
