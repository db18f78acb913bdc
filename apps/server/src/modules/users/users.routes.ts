import {
  companyHintQuerySchema,
  idParamsSchema,
  listQuerySchema,
  userCreateSchema,
  userListItemSchema,
  userSchema,
  usersPageSchema,
  userUpdateSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['users'];

export const usersRoutes = ({ users }: Services) =>
  routes(async (app) => {
    app.get(
      '/users',
      {
        config: { access: 'users:manage' },
        schema: { tags, querystring: listQuerySchema, response: { 200: usersPageSchema } },
      },
      (req) => users.list(req.ctx, req.query),
    );
    app.get(
      '/users/list',
      {
        config: { access: 'users:read' },
        schema: {
          tags,
          querystring: companyHintQuerySchema,
          response: { 200: z.array(userListItemSchema) },
        },
      },
      (req) => users.listAll(req.ctx),
    );
    app.get(
      '/users/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: userSchema } },
      },
      (req) => users.get(req.ctx, req.params.id),
    );
    app.post(
      '/users',
      {
        config: { access: 'users:manage' },
        schema: { tags, body: userCreateSchema, response: { 201: userSchema } },
      },
      async (req, reply) => reply.status(201).send(await users.create(req.ctx, req.body)),
    );
    app.put(
      '/users/:id',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: idParamsSchema,
          body: userUpdateSchema,
          response: { 200: userSchema },
        },
      },
      (req) => users.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/users/:id',
      { config: { access: 'users:manage' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await users.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
  });
