import {
  companyHintQuerySchema,
  idParamsSchema,
  queueCreateSchema,
  queueSchema,
  queueUpdateSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['queues'];

export const queuesRoutes = ({ queues }: Services) =>
  routes(async (app) => {
    app.get(
      '/queue',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: companyHintQuerySchema,
          response: { 200: z.array(queueSchema) },
        },
      },
      (req) => queues.list(req.ctx),
    );
    app.get(
      '/queue/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: queueSchema } },
      },
      (req) => queues.get(req.ctx, req.params.id),
    );
    app.post(
      '/queue',
      {
        config: { access: 'queues:manage' },
        schema: { tags, body: queueCreateSchema, response: { 201: queueSchema } },
      },
      async (req, reply) => reply.status(201).send(await queues.create(req.ctx, req.body)),
    );
    app.put(
      '/queue/:id',
      {
        config: { access: 'queues:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: queueUpdateSchema,
          response: { 200: queueSchema },
        },
      },
      (req) => queues.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/queue/:id',
      { config: { access: 'queues:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await queues.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
  });
