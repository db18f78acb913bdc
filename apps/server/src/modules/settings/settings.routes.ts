import { settingsContract as settings } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const settingsRoutes = ({ settings: service }: Services) =>
  contractRoutes((serve) => {
    serve(settings.list, (req) => service.list(req.ctx));
    serve(settings.showPublic, (req) => service.showPublic(req.params.key));
    serve(settings.update, (req) => service.update(req.ctx, req.params.key, req.body.value));
  });
