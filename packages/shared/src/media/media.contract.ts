import { z } from 'zod';
import { defineContract } from '../contract';

/**
 * Media files by signed, short-lived address (so <img> and <audio> load them without a bearer
 * token): the file itself is the answer, not JSON.
 */
export const mediaContract = defineContract('media', {
  file: {
    method: 'GET',
    path: '/media/:companyId/:file',
    access: 'public',
    params: z.strictObject({
      companyId: z.string().regex(/^\d{1,10}$/),
      file: z.string().regex(/^[0-9a-f-]{36}\.[a-z0-9]{1,5}$/),
    }),
    query: z.object({
      expires: z.coerce.number().int(),
      signature: z.string().max(100),
      /** Saves the file under this name instead of showing it (the sender's name: metadata only). */
      download: z.string().max(255).optional(),
    }),
    responses: { 200: null },
    hidden: true,
  },
});
