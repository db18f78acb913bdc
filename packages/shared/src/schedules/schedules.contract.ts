import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  scheduleCreateSchema,
  scheduleListQuerySchema,
  scheduleSchema,
  schedulesPageSchema,
  scheduleUpdateSchema,
} from './schedules.schemas';

/** Scheduled messages (spec core 2, 4, 5 and 7); the plan's useSchedules switches them on. */
export const schedulesContract = defineContract('schedules', {
  list: {
    method: 'GET',
    path: '/schedules',
    access: 'schedules:use',
    query: scheduleListQuerySchema,
    responses: { 200: schedulesPageSchema },
  },
  get: {
    method: 'GET',
    path: '/schedules/:id',
    access: 'schedules:use',
    params: idParamsSchema,
    responses: { 200: scheduleSchema },
  },
  /** JSON, or the original client's form: `scheduleData` (the JSON) and the image as `file`. */
  create: {
    method: 'POST',
    path: '/schedules',
    access: 'schedules:use',
    body: scheduleCreateSchema.nullish(),
    multipart: true,
    responses: { 201: scheduleSchema },
  },
  update: {
    method: 'PUT',
    path: '/schedules/:id',
    access: 'schedules:use',
    params: idParamsSchema,
    body: scheduleUpdateSchema.nullish(),
    multipart: true,
    responses: { 200: scheduleSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/schedules/:id',
    access: 'schedules:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form: the image as `file` (.png, .jpg, .jpeg). */
  attachMedia: {
    method: 'POST',
    path: '/schedules/:id/media-upload',
    access: 'schedules:use',
    params: idParamsSchema,
    multipart: true,
    responses: { 200: scheduleSchema },
  },
  detachMedia: {
    method: 'DELETE',
    path: '/schedules/:id/media-upload',
    access: 'schedules:use',
    params: idParamsSchema,
    responses: { 200: scheduleSchema },
  },
});
