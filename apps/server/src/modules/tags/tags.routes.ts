import {
  idParamsSchema,
  listQuerySchema,
  tagCreateSchema,
  tagListQuerySchema,
  tagSchema,
  tagSyncSchema,
  tagsPageSchema,
  tagUpdateSchema,
  ticketSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['tags'];

export const tagsRoutes = ({ tags: service }: Services) =>
  routes(async (app) => {
    app.get(
      '/tags',
      {
        config: { access: 'session:use' },
        schema: { tags, querystring: listQuerySchema, response: { 200: tagsPageSchema } },
      },
      (req) => service.list(req.ctx, req.query),
    );
    app.get(
      '/tags/list',
      {
        config: { access: 'session:use' },
        schema: { tags, querystring: tagListQuerySchema, response: { 200: z.array(tagSchema) } },
      },
      (req) => service.listAll(req.ctx, req.query),
    );
    app.get(
      '/tags/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: tagSchema } },
      },
      (req) => service.get(req.ctx, req.params.id),
    );
    app.post(
      '/tags',
      {
        config: { access: 'session:use' },
        schema: { tags, body: tagCreateSchema, response: { 201: tagSchema } },
      },
      async (req, reply) => reply.status(201).send(await service.create(req.ctx, req.body)),
    );
    app.put(
      '/tags/:id',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: idParamsSchema,
          body: tagUpdateSchema,
          response: { 200: tagSchema },
        },
      },
      (req) => service.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/tags/:id',
      { config: { access: 'session:use' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await service.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/tags/sync',
      {
        config: { access: 'session:use' },
        schema: { tags, body: tagSyncSchema, response: { 200: ticketSchema } },
      },
      (req) => service.sync(req.ctx, req.body),
    );
  });
