import { helpsContract as helps } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const helpsRoutes = ({ helps: service }: Services) =>
  contractRoutes((serve) => {
    serve(helps.listAll, () => service.all());
    serve(helps.list, (req) => service.list(req.query));
    serve(helps.create, (req) => service.create(req.body));
    serve(helps.update, (req) => service.update(req.params.id, req.body));
    serve(helps.remove, (req) => service.remove(req.params.id));
  });
