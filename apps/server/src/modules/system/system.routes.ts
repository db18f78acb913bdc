import { APP_VERSION } from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';

export const systemRoutes = () =>
  routes(async (app) => {
    app.get(
      '/version',
      {
        // What load balancers and uptime checks call: not worth a log line each time.
        config: { access: 'public', quiet: true },
        schema: { tags: ['system'], response: { 200: z.object({ version: z.string() }) } },
      },
      async () => ({ version: APP_VERSION }),
    );
  });
