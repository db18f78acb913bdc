import { SEARCH_DEBOUNCE_MS, type Ticket } from '@atendi/shared';
import Autocomplete from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../app/components/FormDialog';
import { toastError } from '../../../app/errors';
import { useDebouncedValue } from '../../../app/hooks';
import { ContactPicker, type PickedContact } from '../../contacts/components/ContactPicker';
import { useForwardMessages } from '../../messages/api';
import { useTickets } from '../api';

interface ForwardDialogProps {
  open: boolean;
  /** The messages chosen; the server sends them in the order they were written. */
  messageIds: number[];
  /** The ticket they are read in, not offered as a target. */
  fromTicketId: number;
  onClose: () => void;
  onDone: (ticket: Ticket) => void;
}

type Target = 'contact' | 'ticket';

/** An open ticket to forward into, searched by its contact's name or number. */
function OpenTicketPicker(props: {
  value: Ticket | null;
  exclude: number;
  error?: string;
  onChange: (ticket: Ticket | null) => void;
}) {
  const { t } = useTranslation('messages');
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS / 2);
  const tickets = useTickets({ status: 'open', searchParam: term });
  const options = (tickets.data?.pages.flatMap((page) => page.tickets) ?? []).filter(
    (ticket) => ticket.id !== props.exclude,
  );
  return (
    <Autocomplete<Ticket>
      options={options}
      value={props.value}
      loading={tickets.isFetching}
      filterOptions={(list) => list}
      getOptionLabel={(ticket) => `${ticket.contact?.name ?? ''} - ${ticket.contact?.number ?? ''}`}
      isOptionEqualToValue={(option, picked) => option.id === picked.id}
      noOptionsText={t('forward.noTickets')}
      loadingText={t('common:loading')}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input' || reason === 'clear') setSearch(text);
      }}
      onChange={(_event, ticket) => props.onChange(ticket)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('forward.ticket')}
          required
          error={Boolean(props.error)}
          helperText={props.error}
        />
      )}
    />
  );
}

/** Forwards the chosen messages to a contact (its live ticket, opened if need be) or an open ticket. */
export function ForwardDialog(props: ForwardDialogProps) {
  const { open, messageIds, fromTicketId, onClose, onDone } = props;
  const { t } = useTranslation('messages');
  const [target, setTarget] = useState<Target>('contact');
  const [contact, setContact] = useState<PickedContact | null>(null);
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [missing, setMissing] = useState(false);
  const forward = useForwardMessages();

  const submit = async () => {
    const chosen =
      target === 'contact'
        ? contact && { contactId: contact.id }
        : ticket && { ticketId: ticket.id };
    if (!chosen) {
      setMissing(true);
      return;
    }
    try {
      const result = await forward.mutateAsync({ messageIds, ...chosen });
      onDone(result.ticket);
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('forward.title', { count: messageIds.length })}
      submitLabel={t('forward.action')}
      pending={forward.isPending}
      maxWidth="xs"
      onSubmit={submit}
    >
      <RadioGroup
        row
        aria-label={t('forward.to')}
        value={target}
        onChange={(event) => {
          setTarget(event.target.value as Target);
          setMissing(false);
        }}
      >
        <FormControlLabel value="contact" control={<Radio />} label={t('forward.toContact')} />
        <FormControlLabel value="ticket" control={<Radio />} label={t('forward.toTicket')} />
      </RadioGroup>
      {target === 'contact' ? (
        <ContactPicker
          label={t('forward.contact')}
          value={contact}
          autoFocus
          error={missing ? t('forward.pickTarget') : undefined}
          onChange={(picked) => {
            setContact(picked);
            setMissing(false);
          }}
        />
      ) : (
        <OpenTicketPicker
          value={ticket}
          exclude={fromTicketId}
          error={missing ? t('forward.pickTarget') : undefined}
          onChange={(picked) => {
            setTicket(picked);
            setMissing(false);
          }}
        />
      )}
    </FormDialog>
  );
}
