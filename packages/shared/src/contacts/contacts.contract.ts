import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  contactCreateSchema,
  contactImportQuerySchema,
  contactImportResultSchema,
  contactListQuerySchema,
  contactSchema,
  contactSimpleListQuerySchema,
  contactsPageSchema,
  contactUpdateSchema,
} from './contacts.schemas';

export const contactsContract = defineContract('contacts', {
  list: {
    method: 'GET',
    path: '/contacts',
    access: 'session:use',
    query: contactListQuerySchema,
    responses: { 200: contactsPageSchema },
  },
  listAll: {
    method: 'GET',
    path: '/contacts/list',
    access: 'session:use',
    query: contactSimpleListQuerySchema,
    responses: { 200: z.array(contactSchema) },
  },
  get: {
    method: 'GET',
    path: '/contacts/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: contactSchema },
  },
  create: {
    method: 'POST',
    path: '/contacts',
    access: 'session:use',
    body: contactCreateSchema,
    responses: { 201: contactSchema },
  },
  update: {
    method: 'PUT',
    path: '/contacts/:id',
    access: 'session:use',
    params: idParamsSchema,
    body: contactUpdateSchema,
    responses: { 200: contactSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/contacts/:id',
    access: 'contacts:delete',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form with a CSV as `file`; without one, the connection's address book. */
  import: {
    method: 'POST',
    path: '/contacts/import',
    access: 'session:use',
    query: contactImportQuerySchema,
    multipart: true,
    responses: { 200: contactImportResultSchema },
  },
});
