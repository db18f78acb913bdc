import { z } from 'zod';
import { defineContract } from '../contract';
import { externalSendResultSchema, externalSendSchema } from './external-api.schemas';

/**
 * The external messaging API (spec administration 7): public, since the connection's bearer
 * token decides: a missing, unknown or revoked one is one and the same 401
 * `{ error: 'ERR_INVALID_API_TOKEN' }`. The plan's useExternalApi switches it on.
 */
export const externalApiContract = defineContract('externalApi', {
  /** JSON {number, body} or a multipart form {number, body, medias}. */
  send: {
    method: 'POST',
    path: '/api/messages/send',
    access: 'public',
    body: externalSendSchema.nullish(),
    multipart: true,
    responses: {
      200: externalSendResultSchema,
      401: z.object({ error: z.literal('ERR_INVALID_API_TOKEN') }),
    },
  },
});
