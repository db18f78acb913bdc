import { ApiError } from './api';
import { i18n } from './i18n';
import { toast } from './toast';

/**
 * The spec's error display: the server's code looked up in the translations, else the raw code
 * or text, else 'An error occurred!'.
 */
export function errorMessage(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'ERR_TOO_MANY_REQUESTS' && (error as ApiError).retryAfter) {
    return i18n.t('common:errors.tooManyRequests', {
      wait: waitText((error as ApiError).retryAfter!),
    });
  }
  if (code) {
    const key = `backendErrors:${code}`;
    if (!i18n.exists(key)) return code;
    // The figures a refusal names (an import's limit and rows), written the language's way.
    const body = (error as ApiError).body ?? {};
    const figure = (value: number | undefined) =>
      value === undefined ? undefined : value.toLocaleString(i18n.language);
    return i18n.t(key, {
      limit: figure(body.limit),
      rows: figure(body.rows),
      limitSeconds: figure(body.limitSeconds),
    });
  }
  const text = error instanceof ApiError ? error.body?.message : undefined;
  if (text) return text;
  if (error instanceof ApiError || !(error instanceof Error) || !error.message) {
    return i18n.t('common:errors.generic');
  }
  // network failures: fetch says 'Failed to fetch'
  return error instanceof TypeError ? i18n.t('common:errors.network') : error.message;
}

/** '45 segundos', '15 minutos': a part of a minute counts whole, so the wait is never shorter. */
function waitText(seconds: number): string {
  return seconds < 60
    ? i18n.t('common:duration.seconds', { count: seconds })
    : i18n.t('common:duration.minutes', { count: Math.ceil(seconds / 60) });
}

export function toastError(error: unknown): void {
  // the session already ended: the login page is what the user needs, not a red toast
  if (error instanceof ApiError && error.sessionEnded) return;
  toast.error(errorMessage(error));
}
