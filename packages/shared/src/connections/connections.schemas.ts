import { z } from 'zod';
import { boundedString, positiveId } from '../validation';

export const CONNECTION_STATUSES = [
  'qrcode',
  'PAIRING',
  'OPENING',
  'CONNECTED',
  'DISCONNECTED',
  'TIMEOUT',
] as const;
export const connectionStatusSchema = z.enum(CONNECTION_STATUSES);
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

/** 'beta' is WhatsApp Web (the spec's default); 'simulator' is the built-in fake network. */
export const PROVIDERS = ['beta', 'cloud-api', 'simulator'] as const;
export const providerSchema = z.enum(PROVIDERS);
export type ProviderName = z.infer<typeof providerSchema>;

/** Statuses that put the '!' badge on the connections menu item. */
export const ATTENTION_STATUSES: readonly ConnectionStatus[] = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
];

export const connectionSchema = z.object({
  id: z.number(),
  name: z.string(),
  provider: providerSchema,
  status: connectionStatusSchema,
  qrcode: z.string(),
  number: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  timeToTransfer: z.number(),
  transferQueueId: z.number().nullable(),
  timeSendQueue: z.number(),
  promptId: z.number().nullable(),
  /** A queue integration (typebot, dialogflow, webhook, n8n) for the connection's tickets. */
  integrationId: z.number().nullable(),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  /** External-API token: answered to the company's admins only, never emitted. */
  token: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;

/** What the realtime channel carries about a session: nothing secret. */
export const connectionSessionSchema = connectionSchema.pick({
  id: true,
  name: true,
  status: true,
  qrcode: true,
  retries: true,
  number: true,
  isDefault: true,
  updatedAt: true,
});
export type ConnectionSession = z.infer<typeof connectionSessionSchema>;

const minutes = z.coerce.number().int().min(0).max(525_600);
const text = z.string().max(10_000);
/** A secret as typed: printable, no spaces (tokens, app secrets). */
const secret = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'Printable characters, no spaces');

/** Meta's Graph API, the default of the platform's CLOUD_API_GRAPH_URL. */
export const DEFAULT_GRAPH_API_URL = 'https://graph.facebook.com/v21.0';

/**
 * The WhatsApp Business Cloud API settings of a 'cloud-api' connection. Write-only: stored as
 * the connection's secrets, never answered nor emitted.
 */
export const cloudApiSettingsSchema = z.object({
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, 'Digits only'),
  accessToken: secret(20, 2_000),
  appSecret: secret(8, 200),
  verifyToken: secret(8, 200),
  // The Graph API's address is the platform's (CLOUD_API_GRAPH_URL), never a company's: a
  // `graphApiUrl` sent here is dropped like any unknown field.
});
export type CloudApiSettings = z.infer<typeof cloudApiSettingsSchema>;

/** Pairing a WhatsApp Web connection by code instead of QR: the phone's number, digits only. */
export const pairingCodeRequestSchema = z.object({
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\d{8,15}$/, 'Digits only, 8 to 15'),
});

export const connectionCreateSchema = z.object({
  name: boundedString(2, 50),
  provider: providerSchema.optional(),
  isDefault: z.boolean().optional(),
  greetingMessage: text.optional(),
  complationMessage: text.optional(),
  outOfHoursMessage: text.optional(),
  ratingMessage: text.optional(),
  expiresInactiveMessage: text.optional(),
  expiresTicket: minutes.optional(),
  timeUseBotQueues: minutes.optional(),
  maxUseBotQueues: z.coerce.number().int().min(0).max(100).optional(),
  timeToTransfer: minutes.optional(),
  transferQueueId: positiveId.nullable().optional(),
  timeSendQueue: minutes.optional(),
  promptId: positiveId.nullable().optional(),
  integrationId: positiveId.nullable().optional(),
  queueIds: z.array(positiveId).max(500).optional(),
  /** Required with provider 'cloud-api'; write-only. */
  cloudApi: cloudApiSettingsSchema.optional(),
  /** Sent by old clients; a new random token is generated instead when asked ('token' route). */
  token: z.string().max(200).nullable().optional(),
  status: z.string().max(20).optional(),
  companyId: z.coerce.number().int().optional(),
});
export type ConnectionCreate = z.infer<typeof connectionCreateSchema>;
export const connectionUpdateSchema = connectionCreateSchema.partial().extend({
  /** Only what changes, e.g. a rotated access token; the rest stays as stored. */
  cloudApi: cloudApiSettingsSchema.partial().optional(),
});
export type ConnectionUpdate = z.infer<typeof connectionUpdateSchema>;

export const connectionListQuerySchema = z.object({
  companyId: z.coerce.number().int().optional(),
  session: z.coerce.number().int().optional(),
});
