import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { languageTag } from '../i18n';
import { editableMoney, moneyNotation, parseMoney } from '../money';

interface MoneyFieldProps<T extends FieldValues, O> {
  /** The form's control, whatever its submit handler receives. */
  control: Control<T, unknown, O>;
  /** A text field of the form: it receives the amount as '19.9' (or what was typed, if no amount). */
  name: Path<T>;
  id: string;
  label: string;
  error?: boolean;
  helperText?: string;
}

interface MoneyInputProps {
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: (element: HTMLInputElement | null) => void;
  error?: boolean;
  helperText?: string;
}

/**
 * An amount in reais typed the way the interface's language writes it ('19,90' in Portuguese and
 * Spanish, '19.90' in English), with the currency as Intl writes it beside it. The form holds the
 * amount in the dot notation its schema reads.
 */
function MoneyInput({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  helperText,
  ...field
}: MoneyInputProps) {
  const { t, i18n } = useTranslation('common');
  const locale = languageTag(i18n.language);
  const notation = moneyNotation(locale);
  const shown = (held: string) => {
    const amount = held.trim() === '' ? Number.NaN : Number(held);
    return Number.isFinite(amount) ? editableMoney(amount, locale) : held;
  };
  const [text, setText] = useState(() => shown(value));
  // a value set from outside (a reset) shows; what the person is typing stays as typed
  const typed = parseMoney(text, locale);
  const display = (typed === undefined ? text : String(typed)) === value ? text : shown(value);
  const unreadable = display.trim() !== '' && parseMoney(display, locale) === undefined;
  const adornment = (
    <InputAdornment position={notation.symbolAfter ? 'end' : 'start'}>
      {notation.symbol}
    </InputAdornment>
  );
  return (
    <TextField
      {...field}
      fullWidth
      error={error || unreadable}
      helperText={unreadable ? t('validation.invalidAmount') : helperText}
      value={display}
      onChange={(event) => {
        setText(event.target.value);
        const amount = parseMoney(event.target.value, locale);
        onChange(amount === undefined ? event.target.value : String(amount));
      }}
      onBlur={() => {
        const amount = parseMoney(text, locale);
        if (amount !== undefined) setText(editableMoney(amount, locale));
        onBlur();
      }}
      inputRef={inputRef}
      slotProps={{
        htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
        input: notation.symbolAfter ? { endAdornment: adornment } : { startAdornment: adornment },
      }}
    />
  );
}

/** The one money input of the forms (plans' value, and any amount to come). */
export function MoneyField<T extends FieldValues, O>({
  control,
  name,
  ...props
}: MoneyFieldProps<T, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <MoneyInput
          {...props}
          name={field.name}
          value={String(field.value ?? '')}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
        />
      )}
    />
  );
}
