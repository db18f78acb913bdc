/** Error codes answered as `{ error: CODE }`; the web looks each one up in its translations. */
export const ERROR_CODES = [
  'ERR_NO_OTHER_WHATSAPP',
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_WAPP_CHECK_CONTACT',
  'ERR_WAPP_INVALID_CONTACT',
  'ERR_WAPP_DOWNLOAD_MEDIA',
  'ERR_INVALID_CREDENTIALS',
  'ERR_EMAIL_NOT_FOUND',
  'ERR_INVALID_RESET_CODE',
  'ERR_SENDING_WAPP_MSG',
  'ERR_DELETE_WAPP_MSG',
  'ERR_OTHER_OPEN_TICKET',
  'ERR_SESSION_EXPIRED',
  'ERR_USER_CREATION_DISABLED',
  'ERR_NO_PERMISSION',
  'ERR_DUPLICATED_CONTACT',
  'ERR_NO_SETTING_FOUND',
  'ERR_NO_CONTACT_FOUND',
  'ERR_NO_TICKET_FOUND',
  'ERR_NO_USER_FOUND',
  'ERR_NO_WAPP_FOUND',
  'ERR_CREATING_MESSAGE',
  'ERR_CREATING_TICKET',
  'ERR_FETCH_WAPP_MSG',
  'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'ERR_WAPP_GREETING_REQUIRED',
  // Codes of this implementation for cases the catalogue leaves open.
  'ERR_VALIDATION',
  'ERR_INVALID_JSON',
  'ERR_UNSUPPORTED_MEDIA_TYPE',
  'ERR_PAYLOAD_TOO_LARGE',
  'ERR_NOT_FOUND',
  'ERR_TOO_MANY_REQUESTS',
  'ERR_SUBSCRIPTION_EXPIRED',
  'ERR_COMPANY_INACTIVE',
  'ERR_DUPLICATED_EMAIL',
  'ERR_DUPLICATED_COMPANY',
  'ERR_NO_COMPANY_FOUND',
  'ERR_NO_PLAN_FOUND',
  'ERR_PLAN_IN_USE',
  'ERR_USER_LIMIT_REACHED',
  'ERR_CANNOT_DELETE_SELF',
  'ERR_USER_NOT_IN_QUEUE',
  'ERR_DUPLICATED_SHORTCODE',
  'ERR_INVOICE_PAID',
  'ERR_PAYMENT_NOT_CONFIGURED',
  'ERR_PAYMENT_PROVIDER',
  /** The messages API's bearer token is missing, unknown or revoked (never a session's code). */
  'ERR_INVALID_API_TOKEN',
  /** An imported sheet has more rows than the limit (`limit`, `rows` found). */
  'ERR_IMPORT_TOO_MANY_ROWS',
  /** An imported archive (.xlsx) inflates out of proportion to its size (`limit`: the ratio). */
  'ERR_IMPORT_ARCHIVE_TOO_LARGE',
  /** An imported sheet could not be read through within the time budget (`limitSeconds`). */
  'ERR_IMPORT_TOO_SLOW',
  'ERR_INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Body of every error answer. `fields` lists what failed validation. */
export interface ErrorBody {
  error: ErrorCode;
  fields?: { path: string; message: string }[];
  /** Only for ERR_SUBSCRIPTION_EXPIRED: the due date the web puts in the spec's message. */
  dueDate?: string;
  /** The limit a refusal names (rows of an import, an archive's ratio). */
  limit?: number;
  /** Rows an import found (at least that many when `atLeast`). */
  rows?: number;
  atLeast?: boolean;
  /** The time budget a refusal names, in seconds. */
  limitSeconds?: number;
}
