import { invoicesContract as invoices } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const invoicesRoutes = ({ invoices: service }: Services) =>
  contractRoutes((serve) => {
    serve(invoices.page, (req) => service.page(req.ctx, req.query));
    serve(invoices.list, (req) => service.list(req.ctx, req.query));
    serve(invoices.get, (req) => service.get(req.ctx, req.params.id));
    serve(invoices.subscribe, (req) => service.subscribe(req.ctx, req.body));
    serve(invoices.webhook, (req) => {
      const token = req.headers['asaas-access-token'];
      return service.webhook(typeof token === 'string' ? token : undefined, req.body);
    });
  });
