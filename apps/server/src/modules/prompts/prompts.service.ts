import { Readable } from 'node:stream';
import {
  DEFAULT_PAGE_SIZE,
  HANDOFF_MARKER,
  isMaskedSecret,
  PROMPT_MSG,
  type Prompt,
  type PromptCreate,
  type PromptError,
  type PromptListQuery,
  type PromptUpdate,
} from '@atendi/shared';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import { SecretBox } from '../../platform/secrets';
import type { ServiceDeps } from '../deps';
import type { OutboundSender } from '../messages/messages.outbound';
import { answerersOf, type TicketLifecycle } from '../tickets/tickets.lifecycle';
import {
  AzureSpeech,
  type ChatMessage,
  OpenAiClient,
  ProviderError,
  type SpeechProvider,
} from './prompts.providers';
import {
  assignQueuePrompt,
  completionsSince,
  conversationTail,
  deletePrompt,
  handOverTicket,
  insertPrompt,
  markTicketPrompt,
  type PromptChanges,
  type PromptRow,
  presentPrompt,
  promptById,
  promptOfTicket,
  promptsPage,
  queueExists,
  recordCompletion,
  recordPromptHealth,
  updatePrompt,
} from './prompts.repository';

/** The last characters of a long key, enough to tell keys apart; none of a short one. */
const hintOf = (secret: string) => (secret.length > 12 ? secret.slice(-4) : '');

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

/** What a provider's failure says of the prompt (its health on the prompts page). */
export function promptErrorOf(error: ProviderError, hasKey: boolean): PromptError {
  if (error.status === 401 || error.status === 403) return hasKey ? 'keyRefused' : 'keyMissing';
  if (error.status === null) return 'unreachable';
  return 'providerError';
}
const HOUR_MS = 60 * 60_000;

/** Told to the model after the company's prompt: how it asks for a person. */
const HANDOFF_RULE = `Se o cliente pedir para falar com um atendente humano, ou se você não puder ajudar, responda apenas com ${HANDOFF_MARKER}.`;

export const HANDOFF_NOTES = {
  asked: 'A IA transferiu o atendimento para um atendente: o cliente pediu uma pessoa.',
  failed:
    'A IA não conseguiu responder (falha no provedor de IA); o atendimento aguarda um atendente.',
  limit:
    'A IA atingiu o limite de respostas por hora deste ticket; o atendimento aguarda um atendente.',
} as const;

/** The prompt a ticket is answered by, and whether its connection or its queue named it. */
export type TicketPrompt = NonNullable<Awaited<ReturnType<typeof promptOfTicket>>>;

/**
 * AI prompts: kept per company with their keys encrypted at rest (answered as hints only), and
 * the AI's turn in a conversation: the last messages go to an OpenAI-compatible chat model with
 * the prompt as system text; its answer is sent like the bot's, spoken too when the prompt has a
 * voice. A request for a person, a provider failure or the hourly cost guard hands the ticket to
 * a person with a note saying why.
 */
export class PromptsService {
  readonly #box: SecretBox;
  readonly #openAi: OpenAiClient;

  constructor(
    private readonly platform: Pick<
      ServiceDeps,
      'db' | 'events' | 'config' | 'storage' | 'log' | 'outbound'
    >,
    private readonly outbound: Pick<OutboundSender, 'send'>,
    private readonly tickets: Pick<TicketLifecycle, 'announce'>,
    private readonly speech: SpeechProvider = new AzureSpeech(
      platform.outbound,
      platform.config.AZURE_TTS_URL,
      platform.config.OUTBOUND_TIMEOUT_MS,
    ),
  ) {
    this.#box = new SecretBox(platform.config.SECRETS_KEY);
    this.#openAi = new OpenAiClient(
      platform.outbound,
      platform.config.OPENAI_BASE_URL,
      platform.config.OUTBOUND_TIMEOUT_MS,
    );
  }

  async list(ctx: RequestContext, query: PromptListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await promptsPage(tenantDb(ctx), query.searchParam, limit, offset);
    const sliced = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return {
      prompts: sliced.rows.map((row) => presentPrompt(row.prompt, row.queueName)),
      count,
      hasMore: sliced.hasMore,
    };
  }

  async get(ctx: RequestContext, id: number): Promise<Prompt> {
    const row = await promptById(tenantDb(ctx), id);
    if (!row) throw notFound();
    return presentPrompt(row.prompt, row.queueName);
  }

  async create(ctx: RequestContext, data: PromptCreate): Promise<Prompt> {
    const db = tenantDb(ctx);
    await this.#checkQueue(db, data.queueId);
    this.#checkKey(Boolean(data.apiKey) && !isMaskedSecret(data.apiKey));
    const id = await insertPrompt(db, {
      name: data.name,
      prompt: data.prompt,
      queueId: data.queueId,
      ...this.#fields(data),
    });
    await assignQueuePrompt(db, id, data.queueId);
    return this.#announce(ctx, id, 'create');
  }

  async update(ctx: RequestContext, id: number, data: PromptUpdate): Promise<Prompt> {
    const db = tenantDb(ctx);
    if (data.queueId !== undefined) await this.#checkQueue(db, data.queueId);
    if (data.apiKey !== undefined && !isMaskedSecret(data.apiKey)) {
      this.#checkKey(Boolean(data.apiKey));
    } else {
      const stored = await promptById(db, id);
      if (!stored) throw notFound();
      this.#checkKey(Boolean(stored.prompt.apiKeyEncrypted));
    }
    const changes: PromptChanges = {
      ...(data.name !== undefined ? { name: data.name } : {}),
      ...(data.prompt !== undefined ? { prompt: data.prompt } : {}),
      ...(data.queueId !== undefined ? { queueId: data.queueId } : {}),
      ...this.#fields(data),
    };
    if (!(await updatePrompt(db, id, changes))) throw notFound();
    if (data.queueId !== undefined) await assignQueuePrompt(db, id, data.queueId);
    return this.#announce(ctx, id, 'update');
  }

  async remove(ctx: RequestContext, id: number) {
    if (!(await deletePrompt(tenantDb(ctx), id))) throw notFound();
    this.platform.events.emit('prompt.deleted', { companyId: ctx.companyId, promptId: id });
    return { message: 'Prompt deleted' };
  }

  /** The prompt that answers the ticket now, if any (see promptOfTicket). */
  async promptFor(db: TenantDb, ticketId: number): Promise<TicketPrompt | undefined> {
    return promptOfTicket(db, await answerersOf(db, ticketId));
  }

  /**
   * The AI's turn on a ticket whose newest messages were claimed by the caller (one turn per
   * burst): asks the model and sends its answer, or hands the ticket to a person.
   */
  async respond(companyId: number, ticketId: number, found: TicketPrompt): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const { prompt, contactId } = found;
    const since = new Date(Date.now() - HOUR_MS);
    if (
      (await completionsSince(db, ticketId, since)) >=
      this.platform.config.AI_MAX_COMPLETIONS_PER_TICKET_HOUR
    ) {
      return this.#handOver(db, ticketId, contactId, HANDOFF_NOTES.limit);
    }
    const apiKey = this.#box.open(prompt.apiKeyEncrypted) ?? '';
    let answer: string;
    try {
      const messages = await this.#conversation(db, prompt, apiKey, ticketId);
      await recordCompletion(db, ticketId, prompt.id);
      answer = await this.#openAi.complete({
        apiKey,
        model: this.platform.config.OPENAI_MODEL,
        messages,
        maxTokens: prompt.maxTokens,
        temperature: prompt.temperature,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const health = promptErrorOf(error, apiKey !== '');
      // the provider's words name the call and its status, never the key
      this.platform.log.warn(
        {
          companyId,
          promptId: prompt.id,
          ticketId,
          provider: error.service,
          status: error.status,
          health,
        },
        `AI prompt could not answer: ${error.message}`,
      );
      await recordPromptHealth(db, prompt.id, health);
      await this.#announce(systemContext(this.platform.db, companyId), prompt.id, 'update');
      return this.#handOver(db, ticketId, contactId, HANDOFF_NOTES.failed);
    }
    if (prompt.lastError) {
      await recordPromptHealth(db, prompt.id, null);
      await this.#announce(systemContext(this.platform.db, companyId), prompt.id, 'update');
    }
    const wantsPerson = answer.includes(HANDOFF_MARKER);
    const text = answer.split(HANDOFF_MARKER).join('').trim();
    const ctx = systemContext(this.platform.db, companyId);
    if (text) {
      // A failed send stays on the message (ack 0) for a person to retry.
      await this.outbound.send(ctx, ticketId, { body: text }).catch(() => undefined);
      if (!wantsPerson) await this.#speak(ctx, ticketId, prompt, text);
    }
    if (wantsPerson) return this.#handOver(db, ticketId, contactId, HANDOFF_NOTES.asked);
    await markTicketPrompt(db, ticketId, prompt.id);
  }

  /** The system text, then the last maxMessages of the conversation (audio transcribed). */
  async #conversation(
    db: TenantDb,
    prompt: PromptRow,
    apiKey: string,
    ticketId: number,
  ): Promise<ChatMessage[]> {
    const tail = await conversationTail(db, ticketId, prompt.maxMessages);
    const messages: ChatMessage[] = [
      { role: 'system', content: `${prompt.prompt}\n\n${HANDOFF_RULE}` },
    ];
    for (const message of tail) {
      let content = message.body.trim();
      if (!message.fromMe && message.mediaType === 'audio' && message.mediaPath && apiKey) {
        content = (await this.#transcribe(apiKey, message.mediaPath, message.mediaMime)) || content;
      }
      if (!content) continue;
      messages.push({ role: message.fromMe ? 'assistant' : 'user', content });
    }
    return messages;
  }

  async #transcribe(apiKey: string, key: string, mime: string | null) {
    const { stream } = await this.platform.storage.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const type = mime ?? 'audio/ogg';
    const extension = type.split('/')[1]?.split(';')[0] ?? 'ogg';
    return this.#openAi.transcribe(
      apiKey,
      this.platform.config.OPENAI_TRANSCRIPTION_MODEL,
      Buffer.concat(chunks),
      type,
      `audio.${extension}`,
    );
  }

  /** The answer spoken too, for a prompt with a voice; the text was already sent. */
  async #speak(ctx: RequestContext, ticketId: number, prompt: PromptRow, text: string) {
    if (prompt.voice === 'texto') return;
    const key = this.#box.open(prompt.voiceKeyEncrypted);
    if (!key || !prompt.voiceRegion) return;
    try {
      const { audio, mimeType } = await this.speech.speak({
        text,
        voice: prompt.voice,
        key,
        region: prompt.voiceRegion,
      });
      const stored = await this.platform.storage.save(
        ctx.companyId,
        mimeType,
        Readable.from(audio),
      );
      await this.outbound.send(ctx, ticketId, {
        body: '',
        media: { key: stored.key, mimeType, fileName: 'resposta.mp3', kind: 'audio' },
      });
    } catch {
      // The text went out; a voice that fails only leaves it unspoken.
    }
  }

  async #handOver(db: TenantDb, ticketId: number, contactId: number, note: string) {
    await handOverTicket(db, ticketId, contactId, note);
    await this.tickets.announce(db, ticketId);
  }

  /** The optional fields as stored: keys sealed (with a hint), a masked hint kept as it is. */
  #fields(data: PromptUpdate): PromptChanges {
    const changes: PromptChanges = {
      ...(data.maxTokens !== undefined ? { maxTokens: data.maxTokens } : {}),
      ...(data.temperature !== undefined ? { temperature: data.temperature } : {}),
      ...(data.maxMessages !== undefined ? { maxMessages: data.maxMessages } : {}),
      ...(data.voice !== undefined ? { voice: data.voice } : {}),
      ...(data.voiceRegion !== undefined ? { voiceRegion: data.voiceRegion ?? '' } : {}),
    };
    if (data.apiKey !== undefined && !isMaskedSecret(data.apiKey)) {
      changes.apiKeyEncrypted = data.apiKey ? this.#box.seal(data.apiKey) : null;
      changes.apiKeyHint = data.apiKey ? hintOf(data.apiKey) : null;
    }
    if (data.voiceKey !== undefined && !isMaskedSecret(data.voiceKey)) {
      changes.voiceKeyEncrypted = data.voiceKey ? this.#box.seal(data.voiceKey) : null;
      changes.voiceKeyHint = data.voiceKey ? hintOf(data.voiceKey) : null;
    }
    return changes;
  }

  /** A prompt that would have no key where the provider asks for one is refused at once. */
  #checkKey(hasKey: boolean) {
    if (hasKey || !this.#openAi.needsKey) return;
    throw new AppError('ERR_VALIDATION', 400, {
      fields: [{ path: 'body.apiKey', message: PROMPT_MSG.keyMissing }],
    });
  }

  async #checkQueue(db: TenantDb, queueId: number) {
    if (!(await queueExists(db, queueId))) throw notFound();
  }

  async #announce(ctx: RequestContext, id: number, action: 'create' | 'update') {
    const prompt = await this.get(ctx, id);
    this.platform.events.emit('prompt.saved', { companyId: ctx.companyId, action, prompt });
    return prompt;
  }
}
