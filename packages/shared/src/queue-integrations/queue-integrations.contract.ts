import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  deliveriesPageSchema,
  deliveriesQuerySchema,
  queueIntegrationCreateSchema,
  queueIntegrationDeletedSchema,
  queueIntegrationListQuerySchema,
  queueIntegrationSchema,
  queueIntegrationsPageSchema,
  queueIntegrationUpdateSchema,
  testSessionResultSchema,
  testSessionSchema,
} from './queue-integrations.schemas';

/** Queue integrations (spec administration: queue integrations); the plan's useIntegrations. */
export const queueIntegrationsContract = defineContract('queueIntegrations', {
  list: {
    method: 'GET',
    path: '/queueIntegration',
    access: 'integrations:use',
    query: queueIntegrationListQuerySchema,
    responses: { 200: queueIntegrationsPageSchema },
  },
  testSession: {
    method: 'POST',
    path: '/queueIntegration/testSession',
    access: 'integrations:use',
    body: testSessionSchema,
    responses: { 200: testSessionResultSchema },
  },
  get: {
    method: 'GET',
    path: '/queueIntegration/:id',
    access: 'integrations:use',
    params: idParamsSchema,
    responses: { 200: queueIntegrationSchema },
  },
  create: {
    method: 'POST',
    path: '/queueIntegration',
    access: 'integrations:use',
    body: queueIntegrationCreateSchema,
    responses: { 200: queueIntegrationSchema },
  },
  update: {
    method: 'PUT',
    path: '/queueIntegration/:id',
    access: 'integrations:use',
    params: idParamsSchema,
    body: queueIntegrationUpdateSchema,
    responses: { 200: queueIntegrationSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/queueIntegration/:id',
    access: 'integrations:use',
    params: idParamsSchema,
    responses: { 200: queueIntegrationDeletedSchema },
  },
  /** Not in the original product: the delivery log of a webhook or n8n integration. */
  deliveries: {
    method: 'GET',
    path: '/queueIntegration/:id/deliveries',
    access: 'integrations:use',
    params: idParamsSchema,
    query: deliveriesQuerySchema,
    responses: { 200: deliveriesPageSchema },
  },
});
