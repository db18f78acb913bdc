import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { positiveId } from '../validation';

/** The spec's prompt messages, in the original product's words. */
export const PROMPT_MSG = {
  queueRequired: 'Informe o setor',
  required: 'Obrigatório',
  /** Saved without a key, and the provider asks for one. */
  keyMissing: 'Informe a chave da API: o provedor de IA pede uma',
  /** The provider refused the key given. */
  keyRefused: 'O provedor de IA recusou esta chave da API',
} as const;

/**
 * Why a prompt's last call to its provider failed (its health on the prompts page): no key where
 * the provider asks for one, a key it refused, a provider out of reach, or another error of it.
 */
export const PROMPT_ERRORS = ['keyMissing', 'keyRefused', 'unreachable', 'providerError'] as const;
export type PromptError = (typeof PROMPT_ERRORS)[number];

/** 'texto' answers in text only; the others also speak it (Azure's neural pt-BR voices). */
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

/**
 * What an answer says to hand the conversation to a person: the model is told to answer with it
 * when the contact asks for one (or it cannot help), and the ticket then waits for an agent.
 */
export const HANDOFF_MARKER = '#ATENDENTE#';

/** A stored secret is answered as this hint only (its last characters), never whole. */
export const SECRET_MASK = '••••';
/** A secret sent back as the hint it was answered as: leave the stored one as it is. */
export const isMaskedSecret = (value: string | null | undefined) =>
  typeof value === 'string' && value.startsWith(SECRET_MASK);

export const promptSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prompt: z.string(),
  voice: z.string(),
  /** A masked hint of the stored key, or null when none is stored. */
  voiceKey: z.string().nullable(),
  voiceRegion: z.string(),
  maxTokens: z.number().int(),
  temperature: z.number(),
  /** A masked hint of the stored key, or null when none is stored. */
  apiKey: z.string().nullable(),
  queueId: z.number().int().nullable(),
  maxMessages: z.number().int(),
  queue: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The last failure of its provider, cleared by the next answer or a key that works. */
  lastError: z.enum(PROMPT_ERRORS).nullable(),
  lastErrorAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

const secret = z.string().trim().max(500);

export const promptCreateSchema = z.object({
  name: z.string().trim().min(1, PROMPT_MSG.required).max(100),
  prompt: z.string().trim().min(1, PROMPT_MSG.required).max(20_000),
  queueId: z.coerce
    .number({ error: PROMPT_MSG.queueRequired })
    .int()
    .positive(PROMPT_MSG.queueRequired)
    .max(2_147_483_647),
  maxTokens: z.coerce.number().int().min(1).max(8_000).default(100),
  temperature: z.coerce.number().min(0).max(2).default(1),
  maxMessages: z.coerce.number().int().min(1).max(50).default(10),
  /** Write-only; the hint answered back (or nothing) keeps the stored key, '' removes it. */
  apiKey: secret.nullable().optional(),
  voice: z.enum(PROMPT_VOICES).default('texto'),
  voiceKey: secret.nullable().optional(),
  voiceRegion: z.string().trim().max(50).nullable().optional(),
});
export type PromptCreate = z.infer<typeof promptCreateSchema>;
export const promptUpdateSchema = promptCreateSchema.partial().extend({
  queueId: positiveId.optional(),
  maxTokens: z.coerce.number().int().min(1).max(8_000).optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
  maxMessages: z.coerce.number().int().min(1).max(50).optional(),
  voice: z.enum(PROMPT_VOICES).optional(),
});
export type PromptUpdate = z.infer<typeof promptUpdateSchema>;

export const promptListQuerySchema = listQuerySchema;
export type PromptListQuery = z.infer<typeof promptListQuerySchema>;

export const promptsPageSchema = z.object({
  prompts: z.array(promptSchema),
  count: z.number().int(),
  hasMore: z.boolean(),
});

export const promptDeletedSchema = z.object({ message: z.string() });
