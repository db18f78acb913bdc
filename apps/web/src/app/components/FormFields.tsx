import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import type { SxProps, Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

interface SwitchFieldProps<T extends FieldValues, O> {
  /** The form's control, whatever its submit handler receives. */
  control: Control<T, unknown, O>;
  name: Path<T>;
  label: ReactNode;
  sx?: SxProps<Theme>;
}

/** A yes/no field of a react-hook-form form, as a labelled switch. */
export function SwitchField<T extends FieldValues, O>({
  control,
  name,
  label,
  sx,
}: SwitchFieldProps<T, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          sx={sx}
          control={
            <Switch
              name={field.name}
              checked={Boolean(field.value)}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              inputRef={field.ref}
            />
          }
          label={label}
        />
      )}
    />
  );
}

interface SelectFieldProps<T extends FieldValues, O> {
  /** The form's control, whatever its submit handler receives. */
  control: Control<T, unknown, O>;
  name: Path<T>;
  id: string;
  label: string;
  options: readonly { value: string; label: ReactNode }[];
  /** Shown while the field holds nothing yet. */
  fallback?: string;
  error?: boolean;
  helperText?: string;
}

/** One choice of a fixed list, for a react-hook-form field. */
export function SelectField<T extends FieldValues, O>({
  control,
  name,
  id,
  label,
  options,
  fallback,
  error,
  helperText,
}: SelectFieldProps<T, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          id={id}
          select
          label={label}
          fullWidth
          name={field.name}
          value={field.value ?? fallback}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={error}
          helperText={helperText}
        >
          {options.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
