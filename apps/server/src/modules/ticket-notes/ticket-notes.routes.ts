import { ticketNotesContract as ticketNotes } from '@atendi/shared';
import type { Services } from '../../app';
import { contractRoutes } from '../../platform/routes';

export const ticketNotesRoutes = ({ ticketNotes: service }: Services) =>
  contractRoutes((serve) => {
    serve(ticketNotes.list, (req) => service.list(req.ctx, req.query));
    serve(ticketNotes.create, (req) => service.create(req.ctx, req.body));
    serve(ticketNotes.remove, (req) => service.remove(req.ctx, req.params.id));
  });
