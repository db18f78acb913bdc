import { contactListsContract as lists } from '@atendi/shared';
import { contractRoutes } from '../../platform/routes';
import { multipartOf } from '../../platform/uploads';
import type { Services } from '../services';

export const contactListsRoutes = ({ contactLists: service }: Services) =>
  contractRoutes((serve) => {
    serve(lists.list, (req) => service.list(req.ctx, req.query));
    serve(lists.options, (req) => service.options(req.ctx));
    serve(lists.get, (req) => service.get(req.ctx, req.params.id));
    serve(lists.create, (req) => service.create(req.ctx, req.body));
    serve(lists.update, (req) => service.update(req.ctx, req.params.id, req.body));
    serve(lists.remove, (req) => service.remove(req.ctx, req.params.id));
    serve(lists.upload, (req) => service.upload(req.ctx, req.params.id, multipartOf(req)));
    serve(lists.listItems, (req) => service.listItems(req.ctx, req.query));
    serve(lists.getItem, (req) => service.getItem(req.ctx, req.params.id));
    serve(lists.createItem, (req) => service.createItem(req.ctx, req.body));
    serve(lists.updateItem, (req) => service.updateItem(req.ctx, req.params.id, req.body));
    serve(lists.removeItem, (req) => service.removeItem(req.ctx, req.params.id));
  });
