import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  ticketNoteCreateSchema,
  ticketNoteListQuerySchema,
  ticketNoteSchema,
} from './ticket-notes.schemas';

export const ticketNotesContract = defineContract('ticket-notes', {
  list: {
    method: 'GET',
    path: '/ticket-notes/list',
    access: 'session:use',
    query: ticketNoteListQuerySchema,
    responses: { 200: z.array(ticketNoteSchema) },
  },
  create: {
    method: 'POST',
    path: '/ticket-notes',
    access: 'session:use',
    body: ticketNoteCreateSchema,
    responses: { 201: ticketNoteSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/ticket-notes/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
