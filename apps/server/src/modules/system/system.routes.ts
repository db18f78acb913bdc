import { timingSafeEqual } from 'node:crypto';
import { APP_VERSION, systemContract } from '@atendi/shared';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { contractRoutes } from '../../platform/routes';

/** Whether the request's bearer token is the metrics token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export const systemRoutes = ({
  config,
  health,
  metrics,
}: Pick<Platform, 'config' | 'health' | 'metrics'>) =>
  contractRoutes((serve) => {
    // What load balancers, uptime checks and Prometheus call: not worth a log line each time.
    serve(systemContract.version, () => ({ version: APP_VERSION }), { quiet: 'always' });
    serve(systemContract.health, () => ({ status: 'ok' as const }), { quiet: 'always' });
    serve(
      systemContract.ready,
      async (_request, reply) => {
        const readiness = await health.readiness();
        if (!readiness.ready) reply.code(503);
        return readiness;
      },
      { quiet: 'always' },
    );
    serve(
      systemContract.metrics,
      async (request, reply) => {
        // Closed to the public: as if it did not exist, unless the caller has the token.
        if (!bearerMatches(request.headers.authorization, config.METRICS_TOKEN)) {
          throw new AppError('ERR_NOT_FOUND', 404);
        }
        return reply
          .type(metrics.contentType)
          .header('cache-control', 'no-store')
          .send(await metrics.text());
      },
      { quiet: 'always' },
    );
  });
