import { z } from 'zod';
import { defineContract } from '../contract';

export const systemContract = defineContract('system', {
  /** What load balancers and uptime checks call. */
  version: {
    method: 'GET',
    path: '/version',
    access: 'public',
    responses: { 200: z.object({ version: z.string() }) },
  },
});
