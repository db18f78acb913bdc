import {
  helpCreateSchema,
  helpSchema,
  helpUpdateSchema,
  idParamsSchema,
  listQuerySchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['helps'];

export const helpsRoutes = ({ helps }: Services) =>
  routes(async (app) => {
    app.get(
      '/helps/list',
      {
        config: { access: 'session:use' },
        schema: { tags, response: { 200: z.array(helpSchema) } },
      },
      () => helps.all(),
    );
    app.get(
      '/helps',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: listQuerySchema,
          response: { 200: z.object({ records: z.array(helpSchema), hasMore: z.boolean() }) },
        },
      },
      (req) => helps.list(req.query),
    );
    app.post(
      '/helps',
      {
        config: { access: 'helps:manage' },
        schema: { tags, body: helpCreateSchema, response: { 201: helpSchema } },
      },
      async (req, reply) => reply.status(201).send(await helps.create(req.body)),
    );
    app.put(
      '/helps/:id',
      {
        config: { access: 'helps:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: helpUpdateSchema,
          response: { 200: helpSchema },
        },
      },
      (req) => helps.update(req.params.id, req.body),
    );
    app.delete(
      '/helps/:id',
      { config: { access: 'helps:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await helps.remove(req.params.id);
        return reply.status(204).send();
      },
    );
  });
