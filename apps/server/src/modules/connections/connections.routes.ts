import {
  connectionCreateSchema,
  connectionListQuerySchema,
  connectionSchema,
  connectionSessionSchema,
  connectionUpdateSchema,
  idParamsSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['connections'];

export const connectionsRoutes = ({ connections }: Services) =>
  routes(async (app) => {
    app.get(
      '/whatsapp',
      {
        config: { access: 'connections:read' },
        schema: {
          tags,
          querystring: connectionListQuerySchema,
          response: { 200: z.array(connectionSchema) },
        },
      },
      (req) => connections.list(req.ctx),
    );
    app.get(
      '/whatsapp/:id',
      {
        config: { access: 'connections:read' },
        schema: { tags, params: idParamsSchema, response: { 200: connectionSchema } },
      },
      (req) => connections.get(req.ctx, req.params.id),
    );
    app.post(
      '/whatsapp',
      {
        config: { access: 'connections:manage' },
        schema: { tags, body: connectionCreateSchema, response: { 201: connectionSchema } },
      },
      async (req, reply) => reply.status(201).send(await connections.create(req.ctx, req.body)),
    );
    app.put(
      '/whatsapp/:id',
      {
        config: { access: 'connections:manage' },
        schema: {
          tags,
          params: idParamsSchema,
          body: connectionUpdateSchema,
          response: { 200: connectionSchema },
        },
      },
      (req) => connections.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/whatsapp/:id',
      { config: { access: 'connections:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await connections.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );

    // Session actions: any user may retry or ask for a new QR; disconnecting is for admins.
    const sessionSchema = {
      tags,
      params: idParamsSchema,
      response: { 200: connectionSessionSchema },
    };
    // POST retries from the stored login; PUT asks for a new QR (the stored login is forgotten).
    for (const method of ['POST', 'PUT'] as const) {
      app.route({
        method,
        url: '/whatsappsession/:id',
        config: { access: 'connections:read' },
        schema: sessionSchema,
        handler: (req) => connections.startSession(req.ctx, req.params.id, method === 'PUT'),
      });
    }
    app.delete(
      '/whatsappsession/:id',
      { config: { access: 'connections:manage' }, schema: sessionSchema },
      (req) => connections.disconnect(req.ctx, req.params.id),
    );
  });
