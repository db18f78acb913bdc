import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  queueOptionCreateSchema,
  queueOptionListQuerySchema,
  queueOptionSchema,
  queueOptionUpdateSchema,
} from './queue-options.schemas';

/** A queue's bot menu, one level at a time (spec administration 7). */
export const queueOptionsContract = defineContract('queue-options', {
  list: {
    method: 'GET',
    path: '/queue-options',
    access: 'queues:manage',
    query: queueOptionListQuerySchema,
    responses: { 200: z.array(queueOptionSchema) },
  },
  create: {
    method: 'POST',
    path: '/queue-options',
    access: 'queues:manage',
    body: queueOptionCreateSchema,
    responses: { 201: queueOptionSchema },
  },
  update: {
    method: 'PUT',
    path: '/queue-options/:id',
    access: 'queues:manage',
    params: idParamsSchema,
    body: queueOptionUpdateSchema,
    responses: { 200: queueOptionSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/queue-options/:id',
    access: 'queues:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
