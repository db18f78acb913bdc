import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  otherOpenTicketSchema,
  ticketCreateSchema,
  ticketListQuerySchema,
  ticketSchema,
  ticketsPageSchema,
  ticketUpdateSchema,
  ticketUuidParamsSchema,
} from './tickets.schemas';

export const ticketsContract = defineContract('tickets', {
  list: {
    method: 'GET',
    path: '/tickets',
    access: 'session:use',
    query: ticketListQuerySchema,
    responses: { 200: ticketsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/tickets/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: ticketSchema },
  },
  getByUuid: {
    method: 'GET',
    path: '/tickets/u/:uuid',
    access: 'session:use',
    params: ticketUuidParamsSchema,
    responses: { 200: ticketSchema },
  },
  create: {
    method: 'POST',
    path: '/tickets',
    access: 'session:use',
    body: ticketCreateSchema,
    responses: { 201: ticketSchema, 409: otherOpenTicketSchema },
  },
  update: {
    method: 'PUT',
    path: '/tickets/:id',
    access: 'session:use',
    params: idParamsSchema,
    body: ticketUpdateSchema,
    responses: { 200: ticketSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/tickets/:id',
    access: 'tickets:delete',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
