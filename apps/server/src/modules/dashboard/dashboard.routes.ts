import { dashboardContract as dashboard } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const dashboardRoutes = ({ dashboard: service }: Services) =>
  contractRoutes((serve) => {
    serve(dashboard.get, (req) => service.get(req.ctx, req.query));
    serve(dashboard.ticketsUsers, (req) => service.ticketsUsers(req.ctx, req.query));
    serve(dashboard.ticketsDay, (req) => service.ticketsDay(req.ctx, req.query));
    serve(dashboard.appointmentsAtendent, (req) =>
      service.appointmentsAtendent(req.ctx, req.query),
    );
    serve(dashboard.rushHour, (req) => service.rushHour(req.ctx, req.query));
    serve(dashboard.departamentRatings, (req) => service.departamentRatings(req.ctx, req.query));
    serve(dashboard.ticketReport, (req) => service.ticketReport(req.ctx, req.query));
  });
