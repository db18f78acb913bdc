import { messageCreateSchema, messagesContract as messages } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const messagesRoutes = ({ messages: service }: Services) =>
  contractRoutes((serve) => {
    serve(messages.list, (req) => service.list(req.ctx, req.params.ticketId, req.query.pageNumber));
    serve(messages.send, (req) =>
      service.send(
        req.ctx,
        req.params.ticketId,
        multipartOf(req) ?? req.body ?? messageCreateSchema.parse({}),
      ),
    );
    serve(messages.forward, (req) => service.forward(req.ctx, req.body));
    serve(messages.retry, (req) => service.retry(req.ctx, req.params.id));
    serve(messages.remove, (req) => service.remove(req.ctx, req.params.id));
  });
