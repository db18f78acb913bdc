import { chatsContract as chats } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import type { Services } from '../services';

export const chatsRoutes = ({ chats: service }: Services) =>
  contractRoutes((serve) => {
    serve(chats.list, (req) => service.list(req.ctx, req.query));
    serve(chats.get, (req) => service.get(req.ctx, req.params.id));
    serve(chats.create, (req) => service.create(req.ctx, req.body));
    serve(chats.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(chats.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(chats.messages, (req) => service.messages(req.ctx, req.params.id, req.query.pageNumber));
    serve(chats.send, (req) => service.send(req.ctx, req.params.id, req.body));
    serve(chats.read, (req) => service.read(req.ctx, req.params.id));
  });
