import { queueOptionsContract as options } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const queueOptionsRoutes = ({ queueOptions: service }: Services) =>
  contractRoutes((serve) => {
    serve(options.list, (req) => service.list(req.ctx, req.query));
    serve(options.create, (req) => service.create(req.ctx, req.body));
    serve(options.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(options.remove, (req) => service.remove(req.ctx, req.params.id));
  });
