import { kanbanContract as kanban } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const kanbanRoutes = ({ kanban: service }: Services) =>
  contractRoutes((serve) => {
    serve(kanban.tags, (req) => service.tags(req.ctx));
    serve(kanban.tickets, (req) => service.tickets(req.ctx, req.query));
    serve(kanban.removeTags, (req) => service.removeTags(req.ctx, req.params.ticketId));
    serve(kanban.addTag, (req) => service.addTag(req.ctx, req.params.ticketId, req.params.tagId));
  });
