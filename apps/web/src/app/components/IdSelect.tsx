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

/**
 * Where an IdSelect's records cannot be had (the plan lacks the feature, or none exist): an
 * empty, disabled select that says so.
 */
export function EmptySelect({ id, label, text }: { id: string; label: string; text: string }) {
  return (
    <TextField id={id} select label={label} value="" disabled fullWidth helperText={text}>
      <MenuItem value="">{text}</MenuItem>
    </TextField>
  );
}
