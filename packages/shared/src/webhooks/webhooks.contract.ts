import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';

const params = z.strictObject({ connectionId: idParamsSchema.shape.id });

/**
 * Meta's webhook for a Cloud API connection. Public (Meta calls it), so the secrets decide:
 * the verify token for the subscription check, the app secret's signature for each payload.
 */
export const webhooksContract = defineContract('webhooks', {
  /** The subscription check: answers the challenge as plain text. */
  cloudApiVerify: {
    method: 'GET',
    path: '/webhooks/cloud-api/:connectionId',
    access: 'public',
    params,
    // Meta may add parameters of its own: dropped, as on every route.
    query: z.object({
      'hub.mode': z.string().max(50).optional(),
      'hub.verify_token': z.string().max(500).optional(),
      'hub.challenge': z.string().max(500).optional(),
    }),
    responses: { 200: null },
  },
  /** A payload, read as the exact bytes signed and parsed after the signature is checked. */
  cloudApiReceive: {
    method: 'POST',
    path: '/webhooks/cloud-api/:connectionId',
    access: 'public',
    params,
    responses: { 200: null },
  },
});
