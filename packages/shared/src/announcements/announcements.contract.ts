import { defineContract } from '../contract';
import { idParamsSchema, listQuerySchema } from '../pagination';
import {
  announcementCreateSchema,
  announcementSchema,
  announcementsPageSchema,
  announcementUpdateSchema,
} from './announcements.schemas';

/**
 * Announcements of the platform: written by the super user, read by every signed-in user of
 * every company (the active ones; the super user reads them all).
 */
export const announcementsContract = defineContract('announcements', {
  list: {
    method: 'GET',
    path: '/announcements',
    access: 'session:use',
    query: listQuerySchema,
    responses: { 200: announcementsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/announcements/:id',
    access: 'session:use',
    params: idParamsSchema,
    responses: { 200: announcementSchema },
  },
  create: {
    method: 'POST',
    path: '/announcements',
    access: 'announcements:manage',
    body: announcementCreateSchema,
    responses: { 201: announcementSchema },
  },
  update: {
    method: 'PUT',
    path: '/announcements/:id',
    access: 'announcements:manage',
    params: idParamsSchema,
    body: announcementUpdateSchema,
    responses: { 200: announcementSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/announcements/:id',
    access: 'announcements:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form: the image as `file` (.png, .jpg, .jpeg). */
  attachMedia: {
    method: 'POST',
    path: '/announcements/:id/media-upload',
    access: 'announcements:manage',
    params: idParamsSchema,
    multipart: true,
    responses: { 200: announcementSchema },
  },
  detachMedia: {
    method: 'DELETE',
    path: '/announcements/:id/media-upload',
    access: 'announcements:manage',
    params: idParamsSchema,
    responses: { 200: announcementSchema },
  },
});
