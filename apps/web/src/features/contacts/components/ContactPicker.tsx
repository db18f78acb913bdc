import { SEARCH_DEBOUNCE_MS } from '@atendi/shared';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../app/hooks';
import { CONTACT_SEARCH_MIN, useContactSearch } from '../api';

/** What the picker shows of a contact. */
export interface PickedContact {
  id: number;
  name: string;
  number: string;
}

interface ContactPickerProps {
  label: string;
  value: PickedContact | null;
  onChange: (contact: PickedContact | null) => void;
  /** The field's error, shown under it. */
  error?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  onBlur?: () => void;
}

/** Picks a contact by name or number, searched from 3 characters typed (spec core 5). */
export function ContactPicker(props: ContactPickerProps) {
  const { label, value, onChange, error, autoFocus, disabled, onBlur } = props;
  const { t } = useTranslation('contacts');
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS / 2);
  const contacts = useContactSearch(term);
  return (
    <Autocomplete<PickedContact>
      options={term.length >= CONTACT_SEARCH_MIN ? (contacts.data ?? []) : []}
      value={value}
      loading={contacts.isFetching}
      disabled={disabled}
      filterOptions={(options) => options}
      getOptionLabel={(option) => `${option.name} - ${option.number}`}
      isOptionEqualToValue={(option, picked) => option.id === picked.id}
      noOptionsText={
        search.trim().length < CONTACT_SEARCH_MIN ? t('picker.typeMore') : t('picker.noContacts')
      }
      loadingText={t('common:loading')}
      onInputChange={(_event, text) => setSearch(text)}
      onChange={(_event, contact) =>
        onChange(contact ? { id: contact.id, name: contact.name, number: contact.number } : null)
      }
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          autoFocus={autoFocus}
          required
          error={Boolean(error)}
          helperText={error}
        />
      )}
    />
  );
}
