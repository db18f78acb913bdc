import { companiesContract as companies } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const companiesRoutes = ({ companies: service }: Services) =>
  contractRoutes((serve) => {
    serve(companies.signup, (req) => service.signup(req.body));
    serve(companies.list, (req) => service.list(req.query));
    serve(companies.listAll, () => service.all());
    serve(companies.withPlan, (req) => service.withPlan(req.ctx, req.params.companyId));
    serve(companies.get, (req) => service.get(req.ctx, req.params.id));
    serve(companies.create, (req) => service.create(req.body));
    serve(companies.update, (req) => service.update(req.params.id, req.body));
    serve(companies.updateSchedules, (req) =>
      service.updateSchedules(req.ctx, req.params.id, req.body.schedules),
    );
    serve(companies.remove, (req) => service.remove(req.ctx, req.params.id));
  });
