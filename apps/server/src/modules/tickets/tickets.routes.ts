import {
  idParamsSchema,
  otherOpenTicketSchema,
  ticketCreateSchema,
  ticketListQuerySchema,
  ticketSchema,
  ticketsPageSchema,
  ticketUpdateSchema,
  ticketUuidParamsSchema,
} from '@atendi/shared';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['tickets'];

export const ticketsRoutes = ({ tickets }: Services) =>
  routes(async (app) => {
    app.get(
      '/tickets',
      {
        config: { access: 'session:use' },
        schema: { tags, querystring: ticketListQuerySchema, response: { 200: ticketsPageSchema } },
      },
      (req) => tickets.list(req.ctx, req.query),
    );
    app.get(
      '/tickets/:id',
      {
        config: { access: 'session:use' },
        schema: { tags, params: idParamsSchema, response: { 200: ticketSchema } },
      },
      (req) => tickets.get(req.ctx, req.params.id),
    );
    app.get(
      '/tickets/u/:uuid',
      {
        config: { access: 'session:use' },
        schema: { tags, params: ticketUuidParamsSchema, response: { 200: ticketSchema } },
      },
      (req) => tickets.getByUuid(req.ctx, req.params.uuid),
    );
    app.post(
      '/tickets',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          body: ticketCreateSchema,
          response: { 201: ticketSchema, 409: otherOpenTicketSchema },
        },
      },
      async (req, reply) => reply.status(201).send(await tickets.create(req.ctx, req.body)),
    );
    app.put(
      '/tickets/:id',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          params: idParamsSchema,
          body: ticketUpdateSchema,
          response: { 200: ticketSchema },
        },
      },
      (req) => tickets.update(req.ctx, req.params.id, req.body),
    );
    app.delete(
      '/tickets/:id',
      { config: { access: 'tickets:delete' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await tickets.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
  });
