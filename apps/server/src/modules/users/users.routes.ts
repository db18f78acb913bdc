import { usersContract as users } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const usersRoutes = ({ users: service }: Services) =>
  contractRoutes((serve) => {
    serve(users.list, (req) => service.list(req.ctx, req.query));
    serve(users.listAll, (req) => service.listAll(req.ctx));
    serve(users.get, (req) => service.get(req.ctx, req.params.id));
    serve(users.create, (req) => service.create(req.ctx, req.body));
    serve(users.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(users.remove, (req) => service.remove(req.ctx, req.params.id));
  });
