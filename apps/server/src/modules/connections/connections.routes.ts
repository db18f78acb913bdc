import { connectionsContract as connections } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const connectionsRoutes = ({ connections: service }: Services) =>
  contractRoutes((serve) => {
    serve(connections.list, (req) => service.list(req.ctx));
    serve(connections.get, (req) => service.get(req.ctx, req.params.id));
    serve(connections.create, (req) => service.create(req.ctx, req.body));
    serve(connections.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(connections.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(connections.regenerateToken, (req) => service.regenerateToken(req.ctx, req.params.id));
    serve(connections.startSession, (req) => service.startSession(req.ctx, req.params.id, false));
    serve(connections.renewSession, (req) => service.startSession(req.ctx, req.params.id, true));
    serve(connections.disconnect, (req) => service.disconnect(req.ctx, req.params.id));
  });
