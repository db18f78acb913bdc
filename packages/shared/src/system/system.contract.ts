import { z } from 'zod';
import { defineContract } from '../contract';

const readiness = z.object({
  ready: z.boolean(),
  database: z.boolean(),
  migrations: z.boolean(),
  /** Null when the instance runs without Redis. */
  redis: z.boolean().nullable(),
  draining: z.boolean(),
});

export const systemContract = defineContract('system', {
  /** What load balancers and uptime checks call. */
  version: {
    method: 'GET',
    path: '/version',
    access: 'public',
    responses: { 200: z.object({ version: z.string() }) },
  },
  /** Liveness: the process answers. */
  health: {
    method: 'GET',
    path: '/health',
    access: 'public',
    responses: { 200: z.object({ status: z.literal('ok') }) },
  },
  /**
   * Readiness for a load balancer: 503 while the database or Redis does not answer, a migration
   * is missing, or the instance drains before it stops.
   */
  ready: {
    method: 'GET',
    path: '/ready',
    access: 'public',
    responses: { 200: readiness, 503: readiness },
  },
  /**
   * Prometheus figures as text. Closed (404) unless the server has a METRICS_TOKEN and the
   * caller sends it as a bearer token; METRICS_PORT serves them on a port of their own instead.
   */
  metrics: {
    method: 'GET',
    path: '/metrics',
    access: 'public',
    hidden: true,
    responses: { 200: null, 404: z.object({ error: z.string() }) },
  },
});
