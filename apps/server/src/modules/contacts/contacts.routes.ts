import { contactsContract as contacts } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const contactsRoutes = ({ contacts: service }: Services) =>
  contractRoutes((serve) => {
    serve(contacts.list, (req) => service.list(req.ctx, req.query));
    serve(contacts.listAll, (req) => service.listAll(req.ctx, req.query));
    serve(contacts.get, (req) => service.get(req.ctx, req.params.id));
    serve(contacts.create, (req) => service.create(req.ctx, req.body));
    serve(contacts.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(contacts.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(contacts.import, (req) => service.import(req.ctx, multipartOf(req), req.query, req.body));
  });
