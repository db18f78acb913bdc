import {
  idParamsSchema,
  quickMessageCreateSchema,
  quickMessageListQuerySchema,
  quickMessageSchema,
  quickMessageSimpleListQuerySchema,
  quickMessagesPageSchema,
  quickMessageUpdateSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import { multipartOf, withUploads } from '../../platform/uploads';
import type { Services } from '../services';

const tags = ['quick-messages'];

export const quickMessagesRoutes = ({ quickMessages }: Services) =>
  routes(async (app) => {
    app.get(
      '/quick-messages',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: quickMessageListQuerySchema,
          response: { 200: quickMessagesPageSchema },
        },
      },
      (req) => quickMessages.list(req.ctx, req.query),
    );
    app.get(
      '/quick-messages/list',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: quickMessageSimpleListQuerySchema,
          response: { 200: z.array(quickMessageSchema) },
        },
      },
      (req) => quickMessages.listAll(req.ctx),
    );
    app.get(
      '/quick-messages/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: quickMessageSchema } },
      },
      (req) => quickMessages.get(req.ctx, req.params.id),
    );
    app.post(
      '/quick-messages',
      {
        config: { access: 'session:use' },
        schema: { tags, body: quickMessageCreateSchema, response: { 201: quickMessageSchema } },
      },
      async (req, reply) => reply.status(201).send(await quickMessages.create(req.ctx, req.body)),
    );
    app.put(
      '/quick-messages/:id',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: idParamsSchema,
          body: quickMessageUpdateSchema,
          response: { 200: quickMessageSchema },
        },
      },
      (req) => quickMessages.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/quick-messages/:id',
      { config: { access: 'session:use' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await quickMessages.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
    // Multipart: the file as `file`, and the spec client's `typeArch`.
    await app.register(
      withUploads(async (forms) => {
        forms.post(
          '/quick-messages/:id/media-upload',
          {
            config: { access: 'session:use' },
            schema: { tags, params: idParamsSchema, response: { 200: quickMessageSchema } },
          },
          (req) => quickMessages.attachMedia(req.ctx, req.params.id, multipartOf(req)),
        );
      }),
    );
    app.delete(
      '/quick-messages/:id/media-upload',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: quickMessageSchema } },
      },
      (req) => quickMessages.detachMedia(req.ctx, req.params.id),
    );
  });
