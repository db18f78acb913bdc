import {
  contactCreateSchema,
  contactImportQuerySchema,
  contactImportResultSchema,
  contactListQuerySchema,
  contactSchema,
  contactSimpleListQuerySchema,
  contactsPageSchema,
  contactUpdateSchema,
  idParamsSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import { multipartOf, withUploads } from '../../platform/uploads';
import type { Services } from '../services';

const tags = ['contacts'];

export const contactsRoutes = ({ contacts }: Services) =>
  routes(async (app) => {
    app.get(
      '/contacts',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: contactListQuerySchema,
          response: { 200: contactsPageSchema },
        },
      },
      (req) => contacts.list(req.ctx, req.query),
    );
    app.get(
      '/contacts/list',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: contactSimpleListQuerySchema,
          response: { 200: z.array(contactSchema) },
        },
      },
      (req) => contacts.listAll(req.ctx, req.query),
    );
    app.get(
      '/contacts/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: contactSchema } },
      },
      (req) => contacts.get(req.ctx, req.params.id),
    );
    app.post(
      '/contacts',
      {
        config: { access: 'session:use' },
        schema: { tags, body: contactCreateSchema, response: { 201: contactSchema } },
      },
      async (req, reply) => reply.status(201).send(await contacts.create(req.ctx, req.body)),
    );
    app.put(
      '/contacts/:id',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: idParamsSchema,
          body: contactUpdateSchema,
          response: { 200: contactSchema },
        },
      },
      (req) => contacts.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/contacts/:id',
      { config: { access: 'contacts:delete' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await contacts.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
    // Multipart with a CSV as `file`; without one, the connection's address book.
    await app.register(
      withUploads(async (forms) => {
        forms.post(
          '/contacts/import',
          {
            config: { access: 'session:use' },
            schema: {
              tags,
              querystring: contactImportQuerySchema,
              response: { 200: contactImportResultSchema },
            },
          },
          (req) => contacts.import(req.ctx, multipartOf(req), req.query, req.body),
        );
      }),
    );
  });
