import { announcementsContract as announcements } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const announcementsRoutes = ({ announcements: service }: Services) =>
  contractRoutes((serve) => {
    serve(announcements.list, (req) => service.list(req.ctx, req.query));
    serve(announcements.get, (req) => service.get(req.ctx, req.params.id));
    serve(announcements.create, (req) => service.create(req.body));
    serve(announcements.update, (req) => service.update(req.params.id, req.body));
    serve(announcements.remove, (req) => service.remove(req.params.id));
    serve(announcements.attachMedia, (req) =>
      service.attachMedia(req.ctx, req.params.id, multipartOf(req)),
    );
    serve(announcements.detachMedia, (req) => service.detachMedia(req.params.id));
  });
