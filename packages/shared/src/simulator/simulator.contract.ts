import { z } from 'zod';
import { defineContract } from '../contract';
import { ACK } from '../messages/messages.schemas';
import { idParamsSchema } from '../pagination';

/** One message of a phone's conversation, as the simulator page reads it and hears it. */
export const simulatorMessageSchema = z.object({
  id: z.number(),
  direction: z.enum(['inbound', 'outbound']),
  providerMessageId: z.string(),
  kind: z.string(),
  body: z.string(),
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  location: z
    .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional() })
    .nullable(),
  vcard: z.string().nullable(),
  quotedProviderMessageId: z.string().nullable(),
  ack: z.number(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  delivered: z.boolean(),
  createdAt: z.string(),
});
export type SimulatorMessage = z.infer<typeof simulatorMessageSchema>;

export const SIMULATOR_KINDS = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'location',
  'contact',
  'call_log',
] as const;

const phoneParams = z.strictObject({
  id: idParamsSchema.shape.id,
  phone: z.string().regex(/^\d{8,15}$/, 'Digits only, 8 to 15'),
});

const messageParams = phoneParams.extend({ messageId: idParamsSchema.shape.id });

export const simulatorSendSchema = z.strictObject({
  name: z.string().trim().max(50).optional(),
  kind: z.enum(SIMULATOR_KINDS).default('text'),
  body: z.string().max(4096).default(''),
  location: z
    .strictObject({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: z.string().max(200).optional(),
    })
    .optional(),
  vcard: z.string().max(10_000).optional(),
  quotedProviderMessageId: z.string().max(100).optional(),
  /** A file as base64, for the media kinds (the page reads the chosen file). */
  file: z
    .strictObject({
      name: z.string().max(255),
      mimeType: z
        .string()
        .max(100)
        .regex(/^[\w.+-]+\/[\w.+-]+$/),
      base64: z.string().max(22_000_000),
    })
    .optional(),
});

const phoneSchema = z.object({ phone: z.string(), name: z.string() });

/**
 * The simulator page's API: a person plays the contacts of the company's simulator
 * connections. Everything here is scoped to the caller's company.
 */
export const simulatorContract = defineContract('simulator', {
  connections: {
    method: 'GET',
    path: '/simulator/connections',
    access: 'connections:read',
    responses: {
      200: z.array(
        z.object({ id: z.number(), name: z.string(), status: z.string(), number: z.string() }),
      ),
    },
  },
  scan: {
    method: 'POST',
    path: '/simulator/connections/:id/scan',
    access: 'connections:read',
    params: idParamsSchema,
    body: z.strictObject({ qrcode: z.string().max(200) }),
    responses: { 204: null },
  },
  disconnect: {
    method: 'POST',
    path: '/simulator/connections/:id/disconnect',
    access: 'connections:read',
    params: idParamsSchema,
    responses: { 204: null },
  },
  phones: {
    method: 'GET',
    path: '/simulator/connections/:id/phones',
    access: 'connections:read',
    params: idParamsSchema,
    responses: { 200: z.array(phoneSchema) },
  },
  /** A phone added on the page before it writes: kept, so it is still listed after a reload. */
  addPhone: {
    method: 'POST',
    path: '/simulator/connections/:id/phones',
    access: 'connections:read',
    params: idParamsSchema,
    body: z.strictObject({
      phone: phoneParams.shape.phone,
      name: z.string().trim().min(1).max(50),
    }),
    responses: { 201: phoneSchema },
  },
  messages: {
    method: 'GET',
    path: '/simulator/connections/:id/phones/:phone/messages',
    access: 'connections:read',
    params: phoneParams,
    query: z.strictObject({ after: z.coerce.number().int().min(0).default(0) }),
    responses: { 200: z.array(simulatorMessageSchema) },
  },
  send: {
    method: 'POST',
    path: '/simulator/connections/:id/phones/:phone/messages',
    access: 'connections:read',
    params: phoneParams,
    body: simulatorSendSchema,
    responses: { 201: simulatorMessageSchema },
  },
  /** The phone edits one of its messages (text, or a caption), as WhatsApp allows. */
  edit: {
    method: 'PUT',
    path: '/simulator/connections/:id/phones/:phone/messages/:messageId',
    access: 'connections:read',
    params: messageParams,
    body: z.strictObject({ body: z.string().trim().min(1).max(4096) }),
    responses: { 200: simulatorMessageSchema },
  },
  /** The phone deletes one of its messages for everyone. */
  remove: {
    method: 'DELETE',
    path: '/simulator/connections/:id/phones/:phone/messages/:messageId',
    access: 'connections:read',
    params: messageParams,
    responses: { 200: simulatorMessageSchema },
  },
  /** The phone received, read or played the company's messages. */
  read: {
    method: 'POST',
    path: '/simulator/connections/:id/phones/:phone/read',
    access: 'connections:read',
    params: phoneParams,
    body: z.strictObject({
      ack: z.union([z.literal(ACK.delivered), z.literal(ACK.read), z.literal(ACK.played)]),
    }),
    responses: { 200: z.object({ updated: z.number() }) },
  },
});
