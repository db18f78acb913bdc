import { campaignsContract as campaigns } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const campaignsRoutes = ({ campaigns: service }: Services) =>
  contractRoutes((serve) => {
    serve(campaigns.list, (req) => service.list(req.ctx, req.query));
    serve(campaigns.get, (req) => service.get(req.ctx, req.params.id, req.query.withRows ?? true));
    serve(campaigns.create, (req) => service.create(req.ctx, req.body));
    serve(campaigns.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(campaigns.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(campaigns.attachMedia, (req) =>
      service.attachMedia(req.ctx, req.params.id, multipartOf(req)),
    );
    serve(campaigns.detachMedia, (req) => service.detachMedia(req.ctx, req.params.id));
    serve(campaigns.cancel, (req) => service.cancel(req.ctx, req.params.id));
    serve(campaigns.restart, (req) => service.restart(req.ctx, req.params.id));
    serve(campaigns.settings, (req) => service.settings(req.ctx));
    serve(campaigns.saveSettings, (req) => service.saveSettings(req.ctx, req.body));
  });
