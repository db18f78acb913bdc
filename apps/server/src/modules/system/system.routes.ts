import { APP_VERSION, systemContract } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';

export const systemRoutes = () =>
  contractRoutes((serve) => {
    // What load balancers and uptime checks call: not worth a log line each time.
    serve(systemContract.version, () => ({ version: APP_VERSION }), { quiet: true });
  });
