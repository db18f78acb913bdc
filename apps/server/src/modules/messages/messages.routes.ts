import {
  idParamsSchema,
  messageCreateSchema,
  messageListQuerySchema,
  messageSchema,
  messagesPageSchema,
  ticketIdParamsSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import { multipartOf, withUploads } from '../../platform/uploads';
import type { Services } from '../services';

const tags = ['messages'];

export const messagesRoutes = ({ messages }: Services) =>
  routes(async (app) => {
    app.get(
      '/messages/:ticketId',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: ticketIdParamsSchema,
          querystring: messageListQuerySchema,
          response: { 200: messagesPageSchema },
        },
      },
      (req) => messages.list(req.ctx, req.params.ticketId, req.query.pageNumber),
    );
    // JSON (body, quotedMsg, signMessage) or a multipart form (medias files, body, signMessage).
    await app.register(
      withUploads(async (forms) => {
        forms.post(
          '/messages/:ticketId',
          {
            config: { access: 'session:use' },
            schema: {
              tags,
              params: ticketIdParamsSchema,
              body: messageCreateSchema.nullish(),
              response: { 201: z.union([messageSchema, z.array(messageSchema)]) },
            },
          },
          async (req, reply) =>
            reply
              .status(201)
              .send(
                await messages.send(
                  req.ctx,
                  req.params.ticketId,
                  multipartOf(req) ?? req.body ?? messageCreateSchema.parse({}),
                ),
              ),
        );
      }),
    );
    app.post(
      '/messages/:id/retry',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: messageSchema } },
      },
      (req) => messages.retry(req.ctx, req.params.id),
    );
    app.delete(
      '/messages/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: messageSchema } },
      },
      (req) => messages.remove(req.ctx, req.params.id),
    );
  });
