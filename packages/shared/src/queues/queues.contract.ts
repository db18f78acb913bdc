import { z } from 'zod';
import { defineContract } from '../contract';
import { companyHintQuerySchema, idParamsSchema } from '../pagination';
import { queueCreateSchema, queueSchema, queueUpdateSchema } from './queues.schemas';

export const queuesContract = defineContract('queues', {
  list: {
    method: 'GET',
    path: '/queue',
    access: 'session:use',
    query: companyHintQuerySchema,
    responses: { 200: z.array(queueSchema) },
  },
  get: {
    method: 'GET',
    path: '/queue/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: queueSchema },
  },
  create: {
    method: 'POST',
    path: '/queue',
    access: 'queues:manage',
    body: queueCreateSchema,
    responses: { 201: queueSchema },
  },
  update: {
    method: 'PUT',
    path: '/queue/:id',
    access: 'queues:manage',
    params: idParamsSchema,
    body: queueUpdateSchema,
    responses: { 200: queueSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/queue/:id',
    access: 'queues:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
