import { filesContract as files } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const filesRoutes = ({ files: service }: Services) =>
  contractRoutes((serve) => {
    serve(files.list, (req) => service.list(req.ctx, req.query));
    serve(files.get, (req) => service.get(req.ctx, req.params.id));
    serve(files.create, (req) => service.create(req.ctx, req.body));
    serve(files.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(files.upload, (req) => service.upload(req.ctx, req.params.fileId, multipartOf(req)));
    serve(files.remove, (req) => service.remove(req.ctx, req.params.id));
  });
