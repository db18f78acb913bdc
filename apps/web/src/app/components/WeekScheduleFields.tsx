import { CLOSED_TIME, type CompanySchedule } from '@atendi/shared';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import {
  type Control,
  type FieldPathByValue,
  type FieldValues,
  type Path,
  useController,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useValidationText } from '../forms';
import { maskTime } from '../timeMask';

interface WeekScheduleFieldsProps<T extends FieldValues> {
  control: Control<T>;
  /** The form's field holding the week (a company's or a queue's hours), one entry a day. */
  name: FieldPathByValue<T, CompanySchedule[]>;
  disabled?: boolean;
}

/**
 * Start and end of each day of a week, typed through the HH:MM mask. The form's resolver judges
 * the times (the shared `weekSchedulesSchema`); this shows its messages under the fields.
 */
export function WeekScheduleFields<T extends FieldValues>({
  control,
  name,
  disabled,
}: WeekScheduleFieldsProps<T>) {
  const { t } = useTranslation('common');
  const days = (useWatch({ control, name }) ?? []) as CompanySchedule[];
  return (
    <Box role="group" aria-label={t('weekSchedule.legend')} sx={{ display: 'grid', gap: 2 }}>
      {days.map((day, index) => (
        <DayFields
          key={day.weekdayEn ?? index}
          control={control}
          path={`${name}.${index}`}
          day={day}
          disabled={disabled}
        />
      ))}
    </Box>
  );
}

interface DayFieldsProps<T extends FieldValues> {
  control: Control<T>;
  /** The day's entry in the form: 'schedules.5'. */
  path: string;
  day: CompanySchedule;
  disabled?: boolean;
}

function DayFields<T extends FieldValues>({ control, path, day, disabled }: DayFieldsProps<T>) {
  const { t } = useTranslation('common');
  const labelId = useId();
  const closed =
    (day.startTime === CLOSED_TIME && day.endTime === CLOSED_TIME) ||
    (!day.startTime && !day.endTime);
  const start = `${path}.startTime` as Path<T>;
  const end = `${path}.endTime` as Path<T>;
  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr 1fr', sm: '11rem 1fr 1fr' },
        columnGap: 1.5,
        rowGap: 1,
        alignItems: 'start',
      }}
    >
      <Box sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' }, pt: { sm: 1 } }}>
        <Typography id={labelId} component="span" sx={{ fontWeight: 500 }}>
          {t(`weekSchedule.days.${day.weekdayEn}`, { defaultValue: day.weekday })}
        </Typography>
        {closed && (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            ({t('weekSchedule.closed')})
          </Typography>
        )}
      </Box>
      <TimeField
        control={control}
        name={start}
        other={end}
        label={t('weekSchedule.start')}
        disabled={disabled}
      />
      <TimeField
        control={control}
        name={end}
        other={start}
        label={t('weekSchedule.end')}
        disabled={disabled}
      />
    </Box>
  );
}

interface TimeFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  /** The day's other time: a start and its end are judged together. */
  other: Path<T>;
  label: string;
  disabled?: boolean;
}

function TimeField<T extends FieldValues>({
  control,
  name,
  other,
  label,
  disabled,
}: TimeFieldProps<T>) {
  const validationText = useValidationText();
  const { field, fieldState } = useController({ control, name, rules: { deps: [other] } });
  return (
    <TextField
      label={label}
      size="small"
      fullWidth
      name={field.name}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(maskTime(event.target.value))}
      onBlur={field.onBlur}
      inputRef={field.ref}
      disabled={disabled}
      placeholder="HH:MM"
      error={Boolean(fieldState.error)}
      helperText={validationText(fieldState.error?.message)}
      slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 5, autoComplete: 'off' } }}
    />
  );
}
