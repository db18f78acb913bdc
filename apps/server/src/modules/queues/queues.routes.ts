import { queuesContract as queues } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const queuesRoutes = ({ queues: service }: Services) =>
  contractRoutes((serve) => {
    serve(queues.list, (req) => service.list(req.ctx));
    serve(queues.get, (req) => service.get(req.ctx, req.params.id));
    serve(queues.create, (req) => service.create(req.ctx, req.body));
    serve(queues.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(queues.remove, (req) => service.remove(req.ctx, req.params.id));
  });
