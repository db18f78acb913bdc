import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Read by screen readers and shown as the placeholder; 'Pesquisar' when not given. */
  label?: string;
}

/** The search box of a list screen's header: full width on a phone, beside the actions above. */
export function SearchField({ value, onChange, label }: SearchFieldProps) {
  const { t } = useTranslation('common');
  const text = label ?? t('list.search');
  return (
    <TextField
      size="small"
      type="search"
      placeholder={text}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { 'aria-label': text },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" aria-hidden />
            </InputAdornment>
          ),
        },
      }}
      sx={{ width: { xs: '100%', sm: 260 } }}
    />
  );
}
