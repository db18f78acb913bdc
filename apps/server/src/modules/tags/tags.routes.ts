import { tagsContract as tags } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const tagsRoutes = ({ tags: service }: Services) =>
  contractRoutes((serve) => {
    serve(tags.list, (req) => service.list(req.ctx, req.query));
    serve(tags.listAll, (req) => service.listAll(req.ctx, req.query));
    serve(tags.get, (req) => service.get(req.ctx, req.params.id));
    serve(tags.create, (req) => service.create(req.ctx, req.body));
    serve(tags.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(tags.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(tags.sync, (req) => service.sync(req.ctx, req.body));
  });
