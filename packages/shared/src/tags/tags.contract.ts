import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema, listQuerySchema } from '../pagination';
import { ticketSchema } from '../tickets/tickets.schemas';
import {
  tagCreateSchema,
  tagListQuerySchema,
  tagSchema,
  tagSyncSchema,
  tagsPageSchema,
  tagUpdateSchema,
} from './tags.schemas';

export const tagsContract = defineContract('tags', {
  list: {
    method: 'GET',
    path: '/tags',
    access: 'session:use',
    query: listQuerySchema,
    responses: { 200: tagsPageSchema },
  },
  listAll: {
    method: 'GET',
    path: '/tags/list',
    access: 'session:use',
    query: tagListQuerySchema,
    responses: { 200: z.array(tagSchema) },
  },
  get: {
    method: 'GET',
    path: '/tags/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: tagSchema },
  },
  create: {
    method: 'POST',
    path: '/tags',
    access: 'session:use',
    body: tagCreateSchema,
    responses: { 201: tagSchema },
  },
  update: {
    method: 'PUT',
    path: '/tags/:id',
    access: 'session:use',
    params: idParamsSchema,
    body: tagUpdateSchema,
    responses: { 200: tagSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/tags/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  sync: {
    method: 'POST',
    path: '/tags/sync',
    access: 'session:use',
    body: tagSyncSchema,
    responses: { 200: ticketSchema },
  },
});
