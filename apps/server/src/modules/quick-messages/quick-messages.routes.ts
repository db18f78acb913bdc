import { quickMessagesContract as quickMessages } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const quickMessagesRoutes = ({ quickMessages: service }: Services) =>
  contractRoutes((serve) => {
    serve(quickMessages.list, (req) => service.list(req.ctx, req.query));
    serve(quickMessages.listAll, (req) => service.listAll(req.ctx));
    serve(quickMessages.get, (req) => service.get(req.ctx, req.params.id));
    serve(quickMessages.create, (req) => service.create(req.ctx, req.body));
    serve(quickMessages.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(quickMessages.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(quickMessages.attachMedia, (req) =>
      service.attachMedia(req.ctx, req.params.id, multipartOf(req)),
    );
    serve(quickMessages.detachMedia, (req) => service.detachMedia(req.ctx, req.params.id));
  });
