import { queueIntegrationsContract as integrations } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const queueIntegrationsRoutes = ({ queueIntegrations: service }: Services) =>
  contractRoutes((serve) => {
    serve(integrations.list, (req) => service.list(req.ctx, req.query));
    serve(integrations.testSession, (req) => service.testSession(req.ctx, req.body));
    serve(integrations.get, (req) => service.get(req.ctx, req.params.id));
    serve(integrations.create, (req) => service.create(req.ctx, req.body));
    serve(integrations.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(integrations.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(integrations.deliveries, (req) =>
      service.deliveries(req.ctx, req.params.id, req.query.pageNumber),
    );
  });
