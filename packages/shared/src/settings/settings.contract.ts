import { z } from 'zod';
import { defineContract } from '../contract';
import {
  publicSettingKeyParamsSchema,
  settingKeyParamsSchema,
  settingSchema,
  settingUpdateSchema,
} from './settings.schemas';

export const settingsContract = defineContract('settings', {
  /** Admins read every company setting; agents what their screens read, none of the super's. */
  list: {
    method: 'GET',
    path: '/settings',
    access: 'settings:read',
    responses: { 200: z.array(settingSchema) },
  },
  /** Public: the platform's sign-up switches, as the login and sign-up pages read them. */
  showPublic: {
    method: 'GET',
    path: '/settings/:key',
    access: 'public',
    params: publicSettingKeyParamsSchema,
    responses: { 200: settingSchema },
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
