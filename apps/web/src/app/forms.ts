import { MSG } from '@atendi/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useMemo } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormProps,
  type UseFormRegisterReturn,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from './api';
import { toastError } from './errors';
import { toast } from './toast';

const MESSAGE_KEYS = new Map<string, string>(
  Object.entries(MSG).map(([key, message]) => [message, key]),
);

/**
 * Turns the shared schemas' English messages ('Too Short!') into the user's language. A form
 * whose Portuguese messages the spec writes as they are ('Too Short!', 'Required', 'Invalid
 * email': the user form) passes `asSpecWrites`, and shows them so in Portuguese.
 */
export function useValidationText({
  asSpecWrites = false,
} = {}): (message: string | undefined) => string | undefined {
  const { t, i18n } = useTranslation('common');
  const verbatim = asSpecWrites && i18n.language === 'pt';
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = MESSAGE_KEYS.get(message);
      return key && !verbatim ? t(`validation.${key}`) : message;
    },
    [t, verbatim],
  );
}

const REQUEST_PARTS = new Set(['body', 'querystring', 'params']);

/**
 * Puts a 400 answer's `fields` on the form's own fields. Answers true when at least one landed,
 * so the caller can skip the generic toast.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  formFields: readonly Path<T>[],
): boolean {
  if (!(error instanceof ApiError) || !error.body?.fields?.length) return false;
  let applied = false;
  for (const field of error.body.fields) {
    // the server names where the value was: 'body.name', 'querystring.searchParam'
    const parts = field.path.split('.');
    if (parts.length > 1 && REQUEST_PARTS.has(parts[0]!)) parts.shift();
    const name = parts[0] as Path<T>;
    if (!formFields.includes(name)) continue;
    setError(name, { type: 'server', message: field.message });
    applied = true;
  }
  return applied;
}

/** react-hook-form's register() for a MUI TextField: the ref belongs on the inner input. */
export function muiField<R extends { ref: UseFormRegisterReturn['ref'] }>(
  registration: R,
): Omit<R, 'ref'> & { inputRef: R['ref'] } {
  const { ref, ...rest } = registration;
  return { ...rest, inputRef: ref };
}

/**
 * A record's form: `Values` as the fields hold them, validated by the shared schema, which
 * hands `Output` (what the route takes) to the submit handler.
 */
export function useRecordForm<Values extends FieldValues, Output = Values>(
  schema: z.ZodType,
  defaultValues: DefaultValues<Values>,
  options?: Omit<UseFormProps<Values, unknown, Output>, 'resolver' | 'defaultValues'>,
) {
  const resolver = useMemo(
    () => zodResolver(schema as never) as unknown as Resolver<Values, unknown, Output>,
    [schema],
  );
  return useForm<Values, unknown, Output>({ ...options, resolver, defaultValues });
}

interface SubmitRecord<T extends FieldValues> {
  save: () => Promise<unknown>;
  /** The toast once saved; the dialog then closes. */
  saved: string;
  onClose: () => void;
  setError: UseFormSetError<T>;
  /** The form's fields a 400 answer's `fields` may name. */
  fields: readonly Path<T>[];
  /** An error the dialog answers itself (a code meant for one field, a limit): true when it did. */
  handle?: (error: unknown) => boolean;
  /** What is shown of an error no field took (a toast unless the dialog says otherwise). */
  otherwise?: (error: unknown) => void;
}

/**
 * The save step of a record's dialog: saved, toasted and closed; or the server's field errors on
 * the fields they name, or else the error shown.
 */
export async function submitRecord<T extends FieldValues>({
  save,
  saved,
  onClose,
  setError,
  fields,
  handle,
  otherwise = toastError,
}: SubmitRecord<T>): Promise<void> {
  try {
    await save();
    toast.success(saved);
    onClose();
  } catch (error) {
    if (handle?.(error)) return;
    if (!applyServerFieldErrors(error, setError, fields)) otherwise(error);
  }
}
