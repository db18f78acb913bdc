import {
  idParamsSchema,
  ticketNoteCreateSchema,
  ticketNoteListQuerySchema,
  ticketNoteSchema,
} from '@atendi/shared';
import { z } from 'zod';
import { routes } from '../../platform/routes';
import type { Services } from '../services';

const tags = ['ticket-notes'];

export const ticketNotesRoutes = ({ ticketNotes }: Services) =>
  routes(async (app) => {
    app.get(
      '/ticket-notes/list',
      {
        config: { access: 'session:use' },
        schema: {
          tags,
          querystring: ticketNoteListQuerySchema,
          response: { 200: z.array(ticketNoteSchema) },
        },
      },
      (req) => ticketNotes.list(req.ctx, req.query),
    );
    app.post(
      '/ticket-notes',
      {
        config: { access: 'session:use' },
        schema: { tags, body: ticketNoteCreateSchema, response: { 201: ticketNoteSchema } },
      },
      async (req, reply) => reply.status(201).send(await ticketNotes.create(req.ctx, req.body)),
    );
    app.delete(
      '/ticket-notes/:id',
      { config: { access: 'session:use' }, schema: { tags, params: idParamsSchema } },
      async (req, reply) => {
        await ticketNotes.remove(req.ctx, req.params.id);
        return reply.status(204).send();
      },
    );
  });
