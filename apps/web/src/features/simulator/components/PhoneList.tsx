import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { SimulatorPhone } from '../api';

interface PhoneListProps {
  phones: readonly SimulatorPhone[];
  selected: string | null;
  onSelect: (phone: SimulatorPhone) => void;
  onAdd: () => void;
}

export function PhoneList({ phones, selected, onSelect, onAdd }: PhoneListProps) {
  const { t } = useTranslation('simulator');
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: 1.5,
          py: 1,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography variant="subtitle2" component="h2" sx={{ flex: 1 }}>
          {t('phones.title')}
        </Typography>
        <Button size="small" startIcon={<PersonAddIcon />} onClick={onAdd}>
          {t('phones.add')}
        </Button>
      </Box>
      {phones.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {t('phones.empty')}
        </Typography>
      ) : (
        <List dense aria-label={t('phones.list')} sx={{ overflowY: 'auto', flex: 1, py: 0 }}>
          {phones.map((phone) => {
            const name = phone.name || phone.phone;
            return (
              <li key={phone.phone}>
                <ListItemButton
                  selected={phone.phone === selected}
                  aria-current={phone.phone === selected ? 'true' : undefined}
                  onClick={() => onSelect(phone)}
                >
                  <ListItemAvatar sx={{ minWidth: 48 }}>
                    <Avatar sx={{ width: 36, height: 36 }} aria-hidden>
                      {name.slice(0, 1).toUpperCase()}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={name}
                    secondary={`+${phone.phone}`}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              </li>
            );
          })}
        </List>
      )}
    </Box>
  );
}
