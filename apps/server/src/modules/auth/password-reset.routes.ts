import { passwordResetContract as reset } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const passwordResetRoutes = ({ passwordReset: service }: Services) =>
  contractRoutes((serve) => {
    serve(reset.requestByPath, (req) => service.request(req.params, req.ip));
    serve(reset.request, (req) => service.request(req.body, req.ip));
    serve(reset.resetByPath, (req) => service.reset(req.params, req.ip));
    serve(reset.reset, (req) => service.reset(req.body, req.ip));
  });
