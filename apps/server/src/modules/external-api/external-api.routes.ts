import { externalApiContract as externalApi } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const externalApiRoutes = ({ externalApi: service }: Services) =>
  contractRoutes((serve) => {
    serve(externalApi.send, (req) =>
      service.send(req.headers.authorization, multipartOf(req) ?? req.body),
    );
  });
