import { SETTING_VALUES, type Setting, type SettingKey } from '@atendi/shared';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../app/errors';
import { toast } from '../../../app/toast';
import { settingValue, useUpdateSetting } from '../api';
import { SettingLabel } from './SettingLabel';
import { TimeZoneSelect } from './TimeZoneSelect';

/** The settings an admin chooses from a list, in the original product's order. */
const SELECT_KEYS = [
  'userRating',
  'scheduleType',
  'call',
  'CheckMsgIsGroup',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'sendGreetingMessageOneQueues',
  'chatBotType',
] as const satisfies readonly SettingKey[];

/** The accepted values of a setting, 'disabled' first as the original product lists them. */
const choicesOf = (key: (typeof SELECT_KEYS)[number]): string[] =>
  [...SETTING_VALUES[key].options].sort(
    (a, b) => Number(b === 'disabled') - Number(a === 'disabled'),
  );

/** One select a setting; each change is saved at once. */
export function SettingsOptions({ settings }: { settings: readonly Setting[] }) {
  const { t } = useTranslation('settings');
  const update = useUpdateSetting();

  const save = (key: SettingKey, value: string) => {
    const previous = settingValue(settings, key);
    if (value === previous) return;
    update.mutate(
      { key, value, previous },
      {
        onSuccess: () => toast.success(t('toasts.updated')),
        onError: (error) => toastError(error),
      },
    );
  };

  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
        columnGap: 3,
        rowGap: 2.5,
      }}
    >
      {SELECT_KEYS.map((key) => (
        <Box key={key}>
          <SettingLabel id={`setting-${key}-label`}>{t(`options.${key}.label`)}</SettingLabel>
          <TextField
            id={`setting-${key}`}
            select
            fullWidth
            value={settingValue(settings, key)}
            onChange={(event) => save(key, event.target.value)}
            slotProps={{ select: { labelId: `setting-${key}-label` } }}
          >
            {choicesOf(key).map((value) => (
              <MenuItem key={value} value={value}>
                {t(`options.${key}.${value}`)}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      ))}
      <TimeZoneSelect
        value={settingValue(settings, 'timezone')}
        onChange={(zone) => save('timezone', zone)}
      />
    </Box>
  );
}
