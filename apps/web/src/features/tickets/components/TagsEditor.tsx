import type { Ticket } from '@atendi/shared';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { useSyncTags, useTagsList } from '../api';

type TagOption = { id: number; name: string; color: string };

/** The ticket's tags, saved as a whole through /tags/sync on each change. */
export function TagsEditor({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('tickets');
  const tags = useTagsList();
  const sync = useSyncTags();
  const options: TagOption[] = tags.data ?? [];
  return (
    <Box sx={{ px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
      <Autocomplete<TagOption, true>
        multiple
        size="small"
        options={options}
        value={ticket.tags}
        disabled={sync.isPending}
        getOptionLabel={(option) => option.name}
        isOptionEqualToValue={(option, value) => option.id === value.id}
        onChange={(_event, value) =>
          sync.mutate({ ticketId: ticket.id, tags: value.map((tag) => ({ id: tag.id })) })
        }
        renderValue={(value, getItemProps) =>
          value.map((tag, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return (
              <Chip
                key={key}
                size="small"
                label={tag.name}
                {...itemProps}
                sx={{ bgcolor: tag.color, color: '#fff' }}
              />
            );
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={ticket.tags.length ? undefined : t('tags.placeholder')}
            inputProps={{ ...params.inputProps, 'aria-label': t('tags.label') }}
          />
        )}
      />
    </Box>
  );
}
