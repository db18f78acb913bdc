import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  quickMessageCreateSchema,
  quickMessageListQuerySchema,
  quickMessageSchema,
  quickMessageSimpleListQuerySchema,
  quickMessagesPageSchema,
  quickMessageUpdateSchema,
} from './quick-messages.schemas';

export const quickMessagesContract = defineContract('quick-messages', {
  list: {
    method: 'GET',
    path: '/quick-messages',
    access: 'session:use',
    query: quickMessageListQuerySchema,
    responses: { 200: quickMessagesPageSchema },
  },
  listAll: {
    method: 'GET',
    path: '/quick-messages/list',
    access: 'session:use',
    query: quickMessageSimpleListQuerySchema,
    responses: { 200: z.array(quickMessageSchema) },
  },
  get: {
    method: 'GET',
    path: '/quick-messages/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: quickMessageSchema },
  },
  create: {
    method: 'POST',
    path: '/quick-messages',
    access: 'session:use',
    body: quickMessageCreateSchema,
    responses: { 201: quickMessageSchema },
  },
  update: {
    method: 'PUT',
    path: '/quick-messages/:id',
    access: 'session:use',
    params: idParamsSchema,
    body: quickMessageUpdateSchema,
    responses: { 200: quickMessageSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/quick-messages/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form: the file as `file`, and the spec client's `typeArch`. */
  attachMedia: {
    method: 'POST',
    path: '/quick-messages/:id/media-upload',
    access: 'session:use',
    params: idParamsSchema,
    multipart: true,
    responses: { 200: quickMessageSchema },
  },
  detachMedia: {
    method: 'DELETE',
    path: '/quick-messages/:id/media-upload',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: quickMessageSchema },
  },
});
