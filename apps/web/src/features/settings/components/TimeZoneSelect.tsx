import { DEFAULT_TIME_ZONE } from '@atendi/shared';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingLabel } from './SettingLabel';

/** 'GMT-03:00' for a zone now; '' when the browser cannot say. */
function offsetOf(zone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en', {
      timeZone: zone,
      timeZoneName: 'longOffset',
    }).formatToParts(new Date());
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

const labels = new Map<string, string>();

/** 'America/Sao Paulo (GMT-03:00)'. */
function zoneLabel(zone: string): string {
  let label = labels.get(zone);
  if (label === undefined) {
    const offset = offsetOf(zone);
    const name = zone.replaceAll('_', ' ');
    label = offset ? `${name} (${offset})` : name;
    labels.set(zone, label);
  }
  return label;
}

// found by the zone's own name too, as people paste it ('America/Sao_Paulo')
const filterZones = createFilterOptions<string>({
  stringify: (zone) => `${zone} ${zoneLabel(zone)}`,
});

/** Every IANA zone the browser knows, with the company's own even when the browser lacks it. */
function zonesWith(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

interface TimeZoneSelectProps {
  value: string;
  onChange: (zone: string) => void;
}

/** A searchable select of the company's time zone ('sao' finds America/Sao_Paulo). */
export function TimeZoneSelect({ value, onChange }: TimeZoneSelectProps) {
  const { t } = useTranslation('settings');
  const current = value || DEFAULT_TIME_ZONE;
  const zones = useMemo(() => zonesWith(current), [current]);

  return (
    <Box>
      <SettingLabel id="setting-timezone-label" htmlFor="setting-timezone">
        {t('options.timezone.label')}
      </SettingLabel>
      <Autocomplete
        id="setting-timezone"
        options={zones}
        value={current}
        disableClearable
        autoHighlight
        getOptionLabel={zoneLabel}
        filterOptions={filterZones}
        noOptionsText={t('options.timezone.noOptions')}
        onChange={(_event, zone) => {
          if (zone) onChange(zone);
        }}
        renderInput={(params) => <TextField {...params} helperText={t('options.timezone.help')} />}
      />
    </Box>
  );
}
