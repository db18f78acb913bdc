import { ticketsContract as tickets } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const ticketsRoutes = ({ tickets: service }: Services) =>
  contractRoutes((serve) => {
    serve(tickets.list, (req) => service.list(req.ctx, req.query));
    serve(tickets.get, (req) => service.get(req.ctx, req.params.id));
    serve(tickets.getByUuid, (req) => service.getByUuid(req.ctx, req.params.uuid));
    serve(tickets.create, (req) => service.create(req.ctx, req.body));
    serve(tickets.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(tickets.remove, (req) => service.remove(req.ctx, req.params.id));
  });
