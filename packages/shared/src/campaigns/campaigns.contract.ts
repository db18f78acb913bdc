import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  campaignCreateSchema,
  campaignDetailSchema,
  campaignGetQuerySchema,
  campaignListQuerySchema,
  campaignSchema,
  campaignSettingSchema,
  campaignSettingsSaveSchema,
  campaignsPageSchema,
  campaignUpdateSchema,
} from './campaigns.schemas';

/**
 * Campaigns and their settings (spec administration 2-9): the plan's useCampaigns and the
 * company's campaignsEnabled setting switch them on.
 */
export const campaignsContract = defineContract('campaigns', {
  list: {
    method: 'GET',
    path: '/campaigns',
    access: 'campaigns:use',
    query: campaignListQuerySchema,
    responses: { 200: campaignsPageSchema },
  },
  get: {
    method: 'GET',
    path: '/campaigns/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    query: campaignGetQuerySchema,
    responses: { 200: campaignDetailSchema },
  },
  create: {
    method: 'POST',
    path: '/campaigns',
    access: 'campaigns:use',
    body: campaignCreateSchema,
    responses: { 201: campaignSchema },
  },
  update: {
    method: 'PUT',
    path: '/campaigns/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    body: campaignUpdateSchema,
    responses: { 200: campaignSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/campaigns/:id',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A multipart form: the media as `file`. */
  attachMedia: {
    method: 'POST',
    path: '/campaigns/:id/media-upload',
    access: 'campaigns:use',
    params: idParamsSchema,
    multipart: true,
    responses: { 200: campaignSchema },
  },
  detachMedia: {
    method: 'DELETE',
    path: '/campaigns/:id/media-upload',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 200: campaignSchema },
  },
  cancel: {
    method: 'POST',
    path: '/campaigns/:id/cancel',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 200: campaignSchema },
  },
  restart: {
    method: 'POST',
    path: '/campaigns/:id/restart',
    access: 'campaigns:use',
    params: idParamsSchema,
    responses: { 200: campaignSchema },
  },
  settings: {
    method: 'GET',
    path: '/campaign-settings',
    access: 'campaigns:use',
    query: z.object({ companyId: z.coerce.number().int().optional() }),
    responses: { 200: z.array(campaignSettingSchema) },
  },
  saveSettings: {
    method: 'POST',
    path: '/campaign-settings',
    access: 'campaigns:use',
    body: campaignSettingsSaveSchema,
    responses: { 200: z.array(campaignSettingSchema) },
  },
});
