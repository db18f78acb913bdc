import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema, listQuerySchema } from '../pagination';
import { helpCreateSchema, helpSchema, helpUpdateSchema } from './helps.schemas';

export const helpsContract = defineContract('helps', {
  listAll: {
    method: 'GET',
    path: '/helps/list',
    access: 'session:use',
    responses: { 200: z.array(helpSchema) },
  },
  list: {
    method: 'GET',
    path: '/helps',
    access: 'session:use',
    query: listQuerySchema,
    responses: { 200: z.object({ records: z.array(helpSchema), hasMore: z.boolean() }) },
  },
  create: {
    method: 'POST',
    path: '/helps',
    access: 'helps:manage',
    body: helpCreateSchema,
    responses: { 201: helpSchema },
  },
  update: {
    method: 'PUT',
    path: '/helps/:id',
    access: 'helps:manage',
    params: idParamsSchema,
    body: helpUpdateSchema,
    responses: { 200: helpSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/helps/:id',
    access: 'helps:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
