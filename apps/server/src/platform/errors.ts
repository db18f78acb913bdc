import type { ErrorBody, ErrorCode } from '@atendi/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isUnstorableText } from '../db/errors';

/** A failure the client should see: its code and HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode = 400,
    readonly extra: Omit<ErrorBody, 'error'> & Record<string, unknown> = {},
    /** Response headers that go with it (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const notFound = (code: ErrorCode = 'ERR_NOT_FOUND') => new AppError(code, 404);
export const forbidden = () => new AppError('ERR_NO_PERMISSION', 403);

const FASTIFY_CODES: Record<string, { code: ErrorCode; status: number }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'ERR_INVALID_JSON', status: 400 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'ERR_INVALID_JSON', status: 400 },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'ERR_UNSUPPORTED_MEDIA_TYPE', status: 415 },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'ERR_VALIDATION', status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 },
  FST_REQ_FILE_TOO_LARGE: { code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 },
  FST_FILES_LIMIT: { code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 },
  FST_PARTS_LIMIT: { code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'ERR_UNSUPPORTED_MEDIA_TYPE', status: 415 },
  FST_ERR_VALIDATION: { code: 'ERR_VALIDATION', status: 400 },
  // Answered by the router before any route runs (see `answerError` as frameworkErrors).
  FST_ERR_BAD_URL: { code: 'ERR_VALIDATION', status: 400 },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'ERR_VALIDATION', status: 414 },
};

/** What the multipart parser throws on a form cut short or without a boundary: plain errors. */
const MALFORMED_FORM =
  /^(Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Multipart: Boundary not found|Boundary required)$/;

/**
 * Every error leaves as `{ error: CODE }`. Validation failures list their fields; anything
 * unexpected is logged with its stack and answered as ERR_INTERNAL, with no detail. Also the
 * router's `frameworkErrors`, so a malformed or overlong URL is answered the same way.
 */
export function answerError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    return reply
      .status(error.statusCode)
      .headers(error.headers)
      .send({ error: error.code, ...error.extra });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => ({
      path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
      message: issue.message ?? 'Invalid',
    }));
    return reply.status(400).send({ error: 'ERR_VALIDATION', fields });
  }
  // Input the schemas let through but PostgreSQL cannot hold, such as a NUL character.
  if (isUnstorableText(error)) return reply.status(400).send({ error: 'ERR_VALIDATION' });
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return reply.status(known.status).send({ error: known.code });
  if (error.statusCode === 429) return reply.status(429).send({ error: 'ERR_TOO_MANY_REQUESTS' });
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.status(error.statusCode).send({ error: 'ERR_VALIDATION' });
  }
  if (!error.statusCode && MALFORMED_FORM.test(error.message)) {
    return reply.status(400).send({ error: 'ERR_VALIDATION' });
  }
  request.log.error({ err: error }, 'unhandled error');
  // The id names the logged lines; it says nothing of the failure itself.
  return reply.status(500).send({ error: 'ERR_INTERNAL', requestId: request.id });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'ERR_NOT_FOUND' }));
}
