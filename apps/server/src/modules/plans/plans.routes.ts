import { plansContract as plans } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const plansRoutes = ({ plans: service }: Services) =>
  contractRoutes((serve) => {
    serve(plans.listPublic, () => service.list());
    serve(plans.register, () => service.list());
    serve(plans.list, () => service.list());
    serve(plans.listAll, () => service.list());
    serve(plans.get, (req) => service.get(req.params.id));
    serve(plans.create, (req) => service.create(req.body));
    serve(plans.update, (req) => service.update(req.params.id, req.body));
    serve(plans.remove, (req) => service.remove(req.params.id));
  });
