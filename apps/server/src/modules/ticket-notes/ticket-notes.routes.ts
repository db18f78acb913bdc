import { ticketNotesContract as ticketNotes } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const ticketNotesRoutes = ({ ticketNotes: service }: Services) =>
  contractRoutes((serve) => {
    serve(ticketNotes.list, (req) => service.list(req.ctx, req.query));
    serve(ticketNotes.create, (req) => service.create(req.ctx, req.body));
    serve(ticketNotes.remove, (req) => service.remove(req.ctx, req.params.id));
  });
