/** Whether a database error is a unique violation (optionally of one named index). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' && (!constraint || pgError.constraint === constraint);
}

/** Whether a database error is a foreign-key violation (a referenced row is missing). */
export function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23503';
}

/** Whether a database error is text it cannot store (a NUL character, a bad escape in JSON). */
export function isUnstorableText(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, message } = (cause ?? {}) as { code?: string; message?: string };
  // character_not_in_repertoire, untranslatable_character
  if (code === '22021' || code === '22P05') return true;
  // invalid_text_representation of JSON: a lone surrogate (\ud800) in text kept as jsonb.
  return code === '22P02' && /type json/.test(message ?? '');
}
