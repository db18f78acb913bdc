import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { boundedString, positiveId } from '../validation';

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type IntegrationLanguage = (typeof INTEGRATION_LANGUAGES)[number];

/** Types that receive the conversation's events as signed JSON posts. */
export const EVENT_INTEGRATION_TYPES: readonly IntegrationType[] = ['webhook', 'n8n'];
/** For these, projectName is set to the name before saving (spec). */
export const NAMED_PROJECT_TYPES: readonly IntegrationType[] = ['webhook', 'n8n', 'typebot'];

/** Headers of a signed delivery: the signature is HMAC-SHA256 over `${timestamp}.${body}`. */
export const SIGNATURE_HEADERS = {
  timestamp: 'x-atendi-timestamp',
  signature: 'x-atendi-signature',
  event: 'x-atendi-event',
} as const;

export const queueIntegrationSchema = z.object({
  id: z.number().int(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  /** A masked hint of the stored service-account key, or null when none is stored. */
  jsonContent: z.string().nullable(),
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: z.number().int(),
  typebotDelayMessage: z.number().int(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotUnknownMessage: z.string(),
  typebotRestartMessage: z.string(),
  /** A masked hint of the signing secret (webhook, n8n), or null when none is stored. */
  secret: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueIntegration = z.infer<typeof queueIntegrationSchema>;

const text = (max: number) => z.string().trim().max(max);
/** A form sends numbers as text and empty fields as ''. */
const whole = (min: number, max: number) =>
  z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z.coerce.number().int().min(min).max(max).optional(),
  );
const url = z
  .string()
  .trim()
  .max(500)
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'URL http(s) inválida');

export const queueIntegrationCreateSchema = z.object({
  type: z.enum(INTEGRATION_TYPES),
  name: boundedString(2, 50),
  projectName: text(200).nullable().optional(),
  /** Write-only; the hint answered back (or nothing) keeps the stored key, '' removes it. */
  jsonContent: text(20_000).nullable().optional(),
  /** The original client sends '' for the types without a language. */
  language: z.preprocess(
    (value) => (value === '' ? null : value),
    z.enum(INTEGRATION_LANGUAGES).nullable().optional(),
  ),
  urlN8N: url.nullable().optional(),
  typebotSlug: text(200).nullable().optional(),
  typebotExpires: whole(0, 10_080),
  typebotDelayMessage: whole(0, 60_000),
  typebotKeywordFinish: text(100).nullable().optional(),
  typebotKeywordRestart: text(100).nullable().optional(),
  typebotUnknownMessage: text(2_000).nullable().optional(),
  typebotRestartMessage: text(2_000).nullable().optional(),
  /** Write-only signing secret (webhook, n8n); a random one is made when none is given. */
  secret: text(200).nullable().optional(),
  /** Sent by old clients; the session's company is used. */
  companyId: z.coerce.number().int().optional(),
});
export type QueueIntegrationCreate = z.infer<typeof queueIntegrationCreateSchema>;
export const queueIntegrationUpdateSchema = queueIntegrationCreateSchema.partial();
export type QueueIntegrationUpdate = z.infer<typeof queueIntegrationUpdateSchema>;

export const queueIntegrationListQuerySchema = listQuerySchema;
export type QueueIntegrationListQuery = z.infer<typeof queueIntegrationListQuerySchema>;

export const queueIntegrationsPageSchema = z.object({
  queueIntegrations: z.array(queueIntegrationSchema),
  count: z.number().int(),
  hasMore: z.boolean(),
});

export const queueIntegrationDeletedSchema = z.object({ message: z.string() });

/**
 * Tries an integration: a saved one by `id`, or the dialog's fields as they stand (the original
 * client sends projectName, jsonContent and language for a dialogflow test).
 */
export const testSessionSchema = queueIntegrationCreateSchema.partial().extend({
  id: positiveId.optional(),
  /** What the contact says in the test; 'Olá' when absent. */
  message: text(2_000).optional(),
});
export type TestSession = z.infer<typeof testSessionSchema>;

/**
 * Why a test failed, as a code the client words for the admin: the address was refused by the
 * outbound guard (a private network, credentials in it...), nothing answered there, it answered
 * too late, it answered with an error status (`status`), its answer was not what the service
 * speaks, or the service-account key is unusable.
 */
export const INTEGRATION_TEST_ERRORS = [
  'ERR_INTEGRATION_ADDRESS_REFUSED',
  'ERR_INTEGRATION_UNREACHABLE',
  'ERR_INTEGRATION_TIMEOUT',
  'ERR_INTEGRATION_HTTP_STATUS',
  'ERR_INTEGRATION_BAD_ANSWER',
  'ERR_INTEGRATION_BAD_KEY',
] as const;
export type IntegrationTestError = (typeof INTEGRATION_TEST_ERRORS)[number];

export const testSessionResultSchema = z.object({
  ok: z.boolean(),
  /** What the integration answered: the bot's messages, or the receiver's status. */
  messages: z.array(z.string()),
  /** Why it failed, when it did. */
  error: z.enum(INTEGRATION_TEST_ERRORS).optional(),
  /** The HTTP status it answered, with ERR_INTEGRATION_HTTP_STATUS. */
  status: z.number().int().optional(),
});
export type TestSessionResult = z.infer<typeof testSessionResultSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const integrationDeliverySchema = z.object({
  id: z.number().int(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  /** Why the last try failed, for the web to word (responseStatus goes with the HTTP one). */
  errorCode: z.enum(INTEGRATION_TEST_ERRORS).nullable(),
  /** The failure as the network or the receiver told it (English), for support. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type IntegrationDelivery = z.infer<typeof integrationDeliverySchema>;

export const deliveriesQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export const deliveriesPageSchema = z.object({
  deliveries: z.array(integrationDeliverySchema),
  hasMore: z.boolean(),
});
