import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  messageCreateSchema,
  messageForwardResultSchema,
  messageForwardSchema,
  messageListQuerySchema,
  messageSchema,
  messagesPageSchema,
  ticketIdParamsSchema,
} from './messages.schemas';

export const messagesContract = defineContract('messages', {
  list: {
    method: 'GET',
    path: '/messages/:ticketId',
    access: 'session:use',
    params: ticketIdParamsSchema,
    query: messageListQuerySchema,
    responses: { 200: messagesPageSchema },
  },
  /** JSON (body, quotedMsg, signMessage) or a multipart form (medias files, body, signMessage). */
  send: {
    method: 'POST',
    path: '/messages/:ticketId',
    access: 'session:use',
    params: ticketIdParamsSchema,
    body: messageCreateSchema.nullish(),
    multipart: true,
    responses: { 201: z.union([messageSchema, z.array(messageSchema)]) },
  },
  /** The original client's path and its one-message body are served too (see messageForwardSchema). */
  forward: {
    method: 'POST',
    path: '/message/forward',
    access: 'session:use',
    body: messageForwardSchema,
    responses: { 200: messageForwardResultSchema },
  },
  retry: {
    method: 'POST',
    path: '/messages/:id/retry',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: messageSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/messages/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: messageSchema },
  },
});
