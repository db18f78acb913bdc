import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ControllerRenderProps, FieldValues, Path } from 'react-hook-form';

interface IdSelectProps<T extends FieldValues, N extends Path<T>> {
  id: string;
  label: string;
  /** The first choice, which leaves the field empty (null). */
  noneLabel: string;
  options: readonly { id: number; name: string }[];
  field: ControllerRenderProps<T, N>;
  error?: boolean;
  helperText?: string;
}

/** A select of one record by id, or none (null), for a react-hook-form field. */
export function IdSelect<T extends FieldValues, N extends Path<T>>({
  id,
  label,
  noneLabel,
  options,
  field,
  error,
  helperText,
}: IdSelectProps<T, N>) {
  return (
    <TextField
      id={id}
      select
      label={label}
      fullWidth
      name={field.name}
      value={field.value ?? ''}
      onChange={(event) => {
        const value = event.target.value as number | string;
        field.onChange(value === '' ? null : Number(value));
      }}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={error}
      helperText={helperText}
    >
      <MenuItem value="">
        <em>{noneLabel}</em>
      </MenuItem>
      {options.map((option) => (
        <MenuItem key={option.id} value={option.id}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
