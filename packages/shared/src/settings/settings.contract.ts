import { z } from 'zod';
import { defineContract } from '../contract';
import { settingKeyParamsSchema, settingSchema, settingUpdateSchema } from './settings.schemas';

export const settingsContract = defineContract('settings', {
  list: {
    method: 'GET',
    path: '/settings',
    access: 'settings:manage',
    responses: { 200: z.array(settingSchema) },
  },
  update: {
    method: 'PUT',
    path: '/settings/:key',
    access: 'settings:manage',
    params: settingKeyParamsSchema,
    body: settingUpdateSchema,
    responses: { 200: settingSchema },
  },
});
