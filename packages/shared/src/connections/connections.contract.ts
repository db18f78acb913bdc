import { z } from 'zod';
import { defineContract } from '../contract';
import { idParamsSchema } from '../pagination';
import {
  connectionCreateSchema,
  connectionListQuerySchema,
  connectionSchema,
  connectionSessionSchema,
  connectionUpdateSchema,
  pairingCodeRequestSchema,
} from './connections.schemas';

export const connectionsContract = defineContract('connections', {
  list: {
    method: 'GET',
    path: '/whatsapp',
    access: 'connections:read',
    query: connectionListQuerySchema,
    responses: { 200: z.array(connectionSchema) },
  },
  get: {
    method: 'GET',
    path: '/whatsapp/:id',
    access: 'connections:read',
    params: idParamsSchema,
    responses: { 200: connectionSchema },
  },
  create: {
    method: 'POST',
    path: '/whatsapp',
    access: 'connections:manage',
    body: connectionCreateSchema,
    responses: { 201: connectionSchema },
  },
  update: {
    method: 'PUT',
    path: '/whatsapp/:id',
    access: 'connections:manage',
    params: idParamsSchema,
    body: connectionUpdateSchema,
    responses: { 200: connectionSchema },
  },
  remove: {
    method: 'DELETE',
    path: '/whatsapp/:id',
    access: 'connections:manage',
    params: idParamsSchema,
    responses: { 204: null },
  },
  /** A new external-API token for the connection; the old one stops working at once. */
  regenerateToken: {
    method: 'POST',
    path: '/whatsapp/:id/token',
    access: 'connections:manage',
    params: idParamsSchema,
    responses: { 200: connectionSchema },
  },
  // Session actions: any user may retry or ask for a new QR; disconnecting is for admins.
  /** Starts the session again from the stored login. */
  startSession: {
    method: 'POST',
    path: '/whatsappsession/:id',
    access: 'connections:read',
    params: idParamsSchema,
    responses: { 200: connectionSessionSchema },
  },
  /** Forgets the stored login and shows a new QR. */
  renewSession: {
    method: 'PUT',
    path: '/whatsappsession/:id',
    access: 'connections:read',
    params: idParamsSchema,
    responses: { 200: connectionSessionSchema },
  },
  disconnect: {
    method: 'DELETE',
    path: '/whatsappsession/:id',
    access: 'connections:manage',
    params: idParamsSchema,
    responses: { 200: connectionSessionSchema },
  },
  /**
   * Pairing by code, WhatsApp Web's alternative to scanning the QR: the session restarts and
   * shows an 8-character code (status PAIRING) to type on the phone under Linked devices.
   */
  pairingCode: {
    method: 'POST',
    path: '/whatsappsession/:id/pairing-code',
    access: 'connections:read',
    params: idParamsSchema,
    body: pairingCodeRequestSchema,
    responses: { 200: connectionSessionSchema },
  },
});
