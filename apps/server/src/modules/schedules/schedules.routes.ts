import { schedulesContract as schedules } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const schedulesRoutes = ({ schedules: service }: Services) =>
  contractRoutes((serve) => {
    serve(schedules.list, (req) => service.list(req.ctx, req.query));
    serve(schedules.get, (req) => service.get(req.ctx, req.params.id));
    serve(schedules.create, (req) => service.create(req.ctx, multipartOf(req) ?? req.body));
    serve(schedules.update, (req) =>
      service.update(req.ctx, req.params.id, multipartOf(req) ?? req.body),
    );
    serve(schedules.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(schedules.attachMedia, (req) =>
      service.attachMedia(req.ctx, req.params.id, multipartOf(req)),
    );
    serve(schedules.detachMedia, (req) => service.detachMedia(req.ctx, req.params.id));
  });
