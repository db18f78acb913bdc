import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  contactListCreateSchema,
  contactListImportResultSchema,
  contactListItemCreateSchema,
  contactListItemSchema,
  contactListItemsPageSchema,
  contactListItemsQuerySchema,
  contactListItemUpdateSchema,
  contactListOptionSchema,
  contactListSchema,
  contactListsPageSchema,
  contactListsQuerySchema,
  contactListUpdateSchema,
} from './contact-lists.schemas';

const companyHint = z.object({ companyId: z.coerce.number().int().optional() });

/**
 * Contact lists and their items (spec administration 2, 3, 5, 7), the recipients of campaigns:
 * the plan's useCampaigns and the company's campaignsEnabled setting switch them on.
 */
export const contactListsContract = defineContract('contactLists', {
  list: {
    method: 'GET',
    path: '/contact-lists',
    access: 'campaigns:use',
    query: contactListsQuerySchema,
    responses: { 200: contactListsPageSchema },
  },
  options: {
    method: 'GET',
    path: '/contact-lists/list',
    access: 'campaigns:use',
    query: companyHint,
    responses: { 200: z.array(contactListOptionSchema) },
  },
  get: {
    method: 'GET',
    path: '/contact-lists/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 200: contactListSchema },
  },
  create: {
    method: 'POST',
    path: '/contact-lists',
    access: 'campaigns:use',
    body: contactListCreateSchema,
    responses: { 201: contactListSchema },
  },
  update: {
    method: 'PUT',
    path: '/contact-lists/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    body: contactListUpdateSchema,
    responses: { 200: contactListSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/contact-lists/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form with the spreadsheet as `file` (.xlsx or .csv), read as it streams in. */
  upload: {
    method: 'POST',
    path: '/contact-lists/:id/upload',
    access: 'campaigns:use',
    params: idParamsSchema,
    multipart: true,
    responses: { 200: contactListImportResultSchema },
  },
  listItems: {
    method: 'GET',
    path: '/contact-list-items',
    access: 'campaigns:use',
    query: contactListItemsQuerySchema,
    responses: { 200: contactListItemsPageSchema },
  },
  getItem: {
    method: 'GET',
    path: '/contact-list-items/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 200: contactListItemSchema },
  },
  createItem: {
    method: 'POST',
    path: '/contact-list-items',
    access: 'campaigns:use',
    body: contactListItemCreateSchema,
    responses: { 201: contactListItemSchema },
  },
  updateItem: {
    method: 'PUT',
    path: '/contact-list-items/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    body: contactListItemUpdateSchema,
    responses: { 200: contactListItemSchema },
  },
  /** The spec's 'contacts-page:deleteContact': admins (campaigns are theirs). */
  removeItem: {
    method: 'DELETE',
    path: '/contact-list-items/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
