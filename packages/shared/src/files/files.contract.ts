import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  fileListCreateSchema,
  fileListSchema,
  fileListsPageSchema,
  fileListsQuerySchema,
  fileListUpdateSchema,
  fileListUploadParamsSchema,
  fileListUploadResultSchema,
} from './files.schemas';

/**
 * File lists (spec administration 2, 3, 5, 7): named lists of files with a message, kept by a
 * company's admins for campaigns and bots.
 */
export const filesContract = defineContract('files', {
  list: {
    method: 'GET',
    path: '/files',
    access: 'files:manage',
    query: fileListsQuerySchema,
    responses: { 200: fileListsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/files/:id',
    access: 'files:manage',
    params: idParamsSchema,
    responses: { 200: fileListSchema },
  },
  create: {
    method: 'POST',
    path: '/files',
    access: 'files:manage',
    body: fileListCreateSchema,
    responses: { 201: fileListSchema },
  },
  update: {
    method: 'PUT',
    path: '/files/:id',
    access: 'files:manage',
    params: idParamsSchema,
    body: fileListUpdateSchema,
    responses: { 200: fileListSchema },
  },
  /**
   * A multipart form: `files` (one part per file) with, per file and in the same order, the
   * option's `id`, `name` and `mediaType`; and the spec client's `fileId` and `typeArch`.
   */
  upload: {
    method: 'POST',
    path: '/files/uploadList/:fileId',
    access: 'files:manage',
    params: fileListUploadParamsSchema,
    multipart: true,
    responses: { 200: fileListUploadResultSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/files/:id',
    access: 'files:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
});
