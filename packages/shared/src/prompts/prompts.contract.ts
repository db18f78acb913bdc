import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  promptCreateSchema,
  promptDeletedSchema,
  promptListQuerySchema,
  promptSchema,
  promptsPageSchema,
  promptUpdateSchema,
} from './prompts.schemas';

/** AI prompts (spec administration 3, 7); the plan's useOpenAi switches them on. */
export const promptsContract = defineContract('prompts', {
  list: {
    method: 'GET',
    path: '/prompt',
    access: 'prompts:use',
    query: promptListQuerySchema,
    responses: { 200: promptsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/prompt/:id',
    access: 'prompts:use',
    params: idParamsSchema,
    responses: { 200: promptSchema },
  },
  create: {
    method: 'POST',
    path: '/prompt',
    access: 'prompts:use',
    body: promptCreateSchema,
    responses: { 200: promptSchema },
  },
  update: {
    method: 'PUT',
    path: '/prompt/:id',
    access: 'prompts:use',
    params: idParamsSchema,
    body: promptUpdateSchema,
    responses: { 200: promptSchema },
  },
  /** Answers a message, which the original client shows as an info toast. */
  remove: {
    method: 'DELETE',
    path: '/prompt/:id',
    access: 'prompts:use',
    params: idParamsSchema,
    responses: { 200: promptDeletedSchema },
  },
});
