import { promptsContract as prompts } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const promptsRoutes = ({ prompts: service }: Services) =>
  contractRoutes((serve) => {
    serve(prompts.list, (req) => service.list(req.ctx, req.query));
    serve(prompts.get, (req) => service.get(req.ctx, req.params.id));
    serve(prompts.create, (req) => service.create(req.ctx, req.body));
    serve(prompts.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(prompts.remove, (req) => service.remove(req.ctx, req.params.id));
  });
