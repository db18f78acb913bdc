import { MSG } from '@atendi/shared';
import { useCallback } from 'react';
import type { FieldValues, Path, UseFormRegisterReturn, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api';

const MESSAGE_KEYS = new Map<string, string>(
  Object.entries(MSG).map(([key, message]) => [message, key]),
);

/** Turns the shared schemas' English messages ('Too Short!') into the user's language. */
export function useValidationText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation('common');
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const key = MESSAGE_KEYS.get(message);
      return key ? t(`validation.${key}`) : message;
    },
    [t],
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
