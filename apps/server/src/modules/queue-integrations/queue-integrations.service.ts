import { randomBytes } from 'node:crypto';
import {
  DEFAULT_PAGE_SIZE,
  EVENT_INTEGRATION_TYPES,
  type IntegrationTestError,
  type IntegrationType,
  isMaskedSecret,
  type Message,
  NAMED_PROJECT_TYPES,
  type QueueIntegration,
  type QueueIntegrationCreate,
  type QueueIntegrationListQuery,
  type QueueIntegrationUpdate,
  SIGNATURE_HEADERS,
  type TestSession,
  type TestSessionResult,
  type Ticket,
} from '@atendi/shared';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { page, sliceMore } from '../../platform/routes';
import { SecretBox } from '../../platform/secrets';
import type { ServiceDeps } from '../deps';
import type { OutboundSender } from '../messages/messages.outbound';
import { answerersOf, type TicketLifecycle, ticketOf } from '../tickets/tickets.lifecycle';
import {
  DialogflowClient,
  IntegrationError,
  parseServiceAccount,
  postSigned,
  type Transport,
  TypebotClient,
  TypebotSessionGone,
  type TypebotTurn,
} from './queue-integrations.providers';
import {
  deleteIntegration,
  deliveriesPage,
  deliveryById,
  dropSession,
  eventReceiversOfTicket,
  handOverFromBot,
  type IntegrationChanges,
  type IntegrationRow,
  insertDelivery,
  insertIntegration,
  integrationById,
  integrationExists,
  integrationsOfTicket,
  integrationsPage,
  markTicketIntegration,
  presentDelivery,
  presentIntegration,
  recordAttempt,
  saveSession,
  sessionOfTicket,
  updateIntegration,
} from './queue-integrations.repository';

export const DELIVERY_JOB = 'integration-delivery';
const BOT_TYPES: readonly IntegrationType[] = ['typebot', 'dialogflow'];
const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const hintOf = (secret: string) => (secret.length > 12 ? secret.slice(-4) : '');
const invalid = (field: string, message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path: `body.${field}`, message }] });

export const BOT_NOTES = {
  finished: 'O contato encerrou o atendimento do bot pela palavra-chave; aguarda um atendente.',
  ended: 'O fluxo do bot terminou; o atendimento aguarda um atendente.',
  failed:
    'O bot da integração não respondeu (falha no serviço); o atendimento aguarda um atendente.',
} as const;

/** The bot that answers a ticket, and whether its connection or its queue named it. */
export interface TicketBot {
  integration: IntegrationRow;
  contactId: number;
  by: 'connection' | 'queue';
}

/** A ticket's view in an event: who, where and how it stands, nothing secret. */
const ticketView = (ticket: Ticket) => ({
  id: ticket.id,
  uuid: ticket.uuid,
  status: ticket.status,
  queueId: ticket.queueId,
  userId: ticket.userId,
  whatsappId: ticket.whatsappId,
  isGroup: ticket.isGroup,
  contact: { id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number },
  updatedAt: ticket.updatedAt,
});

const messageView = (message: Message) => ({
  id: message.id,
  body: message.body,
  fromMe: message.fromMe,
  mediaType: message.mediaType,
  createdAt: message.createdAt,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Queue integrations: kept per company (the Dialogflow key and the signing secret encrypted,
 * answered as hints), their events posted to webhook and n8n receivers as signed JSON through
 * the job engine (retried with backoff, each delivery logged), and the bots' turn in a
 * conversation: Typebot (a chat session per ticket) and Dialogflow (an intent per message).
 */
export class QueueIntegrationsService {
  readonly #box: SecretBox;
  readonly #transport: Transport;
  readonly #typebot: TypebotClient;
  readonly #dialogflow: DialogflowClient;
  /** Event receivers being read, by company and ticket, until the events of a moment are heard. */
  readonly #receivers = new Map<string, Promise<number[]>>();

  constructor(
    private readonly platform: Pick<
      ServiceDeps,
      'db' | 'events' | 'config' | 'jobs' | 'outbound' | 'log'
    >,
    private readonly outbound: Pick<OutboundSender, 'send'>,
    private readonly tickets: Pick<TicketLifecycle, 'announce'>,
  ) {
    const { config } = platform;
    this.#box = new SecretBox(config.SECRETS_KEY);
    this.#transport = {
      outbound: platform.outbound,
      timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    };
    this.#typebot = new TypebotClient(this.#transport);
    this.#dialogflow = new DialogflowClient(this.#transport, config.DIALOGFLOW_API_URL);
    platform.jobs.define<{ companyId: number; deliveryId: number }>(DELIVERY_JOB, {
      retryLimit: config.INTEGRATION_DELIVERY_RETRIES,
      retryDelaySeconds: config.INTEGRATION_RETRY_DELAY_SECONDS,
      concurrency: 2,
      handler: ({ companyId, deliveryId }, run) => this.deliver(companyId, deliveryId, run.final),
    });
    platform.events.on('message.saved', ({ companyId, action, message, ticket, followUp }) => {
      if (action !== 'create' || ticket.isGroup) return;
      const event = message.fromMe ? 'message.sent' : 'message.received';
      void this.#queueEvent(
        companyId,
        ticket,
        event,
        { ticket: ticketView(ticket), message: messageView(message) },
        followUp?.eventIntegrations,
      ).catch(() => undefined);
    });
    platform.events.on('ticket.saved', ({ companyId, action, ticket }) => {
      if (action !== 'update' || ticket.isGroup) return;
      void this.#queueEvent(companyId, ticket, 'ticket.updated', {
        ticket: ticketView(ticket),
      }).catch(() => undefined);
    });
  }

  // --- records --------------------------------------------------------------------------------

  async list(ctx: RequestContext, query: QueueIntegrationListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await integrationsPage(tenantDb(ctx), query.searchParam, limit, offset);
    const sliced = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return {
      queueIntegrations: sliced.rows.map(presentIntegration),
      count,
      hasMore: sliced.hasMore,
    };
  }

  async get(ctx: RequestContext, id: number): Promise<QueueIntegration> {
    const row = await integrationById(tenantDb(ctx), id);
    if (!row) throw notFound();
    return presentIntegration(row);
  }

  async create(ctx: RequestContext, data: QueueIntegrationCreate): Promise<QueueIntegration> {
    const changes = this.#fields(data.type, data);
    if (EVENT_INTEGRATION_TYPES.includes(data.type) && !changes.secretEncrypted) {
      // Every receiver gets signed posts; the admin may type the secret in later.
      const secret = randomBytes(24).toString('base64url');
      changes.secretEncrypted = this.#box.seal(secret);
      changes.secretHint = hintOf(secret);
    }
    this.#checkComplete({ ...changes, type: data.type });
    const id = await insertIntegration(tenantDb(ctx), {
      ...changes,
      type: data.type,
      name: data.name,
    });
    return this.#announce(ctx, id, 'create');
  }

  async update(
    ctx: RequestContext,
    id: number,
    data: QueueIntegrationUpdate,
  ): Promise<QueueIntegration> {
    const db = tenantDb(ctx);
    const current = await integrationById(db, id);
    if (!current) throw notFound();
    const type = data.type ?? (current.type as IntegrationType);
    const changes = this.#fields(type, { name: current.name, ...data });
    this.#checkComplete({ ...current, ...changes, type });
    if (!(await updateIntegration(db, id, { ...changes, type }))) throw notFound();
    return this.#announce(ctx, id, 'update');
  }

  async remove(ctx: RequestContext, id: number) {
    if (!(await deleteIntegration(tenantDb(ctx), id))) throw notFound();
    this.platform.events.emit('queueIntegration.deleted', {
      companyId: ctx.companyId,
      integrationId: id,
    });
    return { message: 'Integration deleted' };
  }

  async deliveries(ctx: RequestContext, id: number, pageNumber: number) {
    const db = tenantDb(ctx);
    if (!(await integrationExists(db, id))) throw notFound();
    const { limit, offset } = page(pageNumber, DEFAULT_PAGE_SIZE);
    const sliced = sliceMore(await deliveriesPage(db, id, limit, offset), DEFAULT_PAGE_SIZE);
    return { deliveries: sliced.rows.map(presentDelivery), hasMore: sliced.hasMore };
  }

  // --- trying one -----------------------------------------------------------------------------

  /** Tries a saved integration, or the dialog's fields as they stand, and answers what it said. */
  async testSession(ctx: RequestContext, data: TestSession): Promise<TestSessionResult> {
    const db = tenantDb(ctx);
    const saved = data.id ? await integrationById(db, data.id) : undefined;
    if (data.id && !saved) throw notFound();
    const type = data.type ?? (saved?.type as IntegrationType | undefined) ?? 'dialogflow';
    const changes = this.#fields(type, { name: saved?.name ?? 'teste', ...data });
    const row = { ...(saved ?? blankRow(ctx.companyId, type)), ...changes, type };
    const message = data.message?.trim() || 'Olá';
    try {
      if (type === 'typebot') {
        if (!row.urlN8N || !row.typebotSlug) throw invalid('urlN8N', 'Informe a URL e o slug');
        const turn = await this.#typebot.start(row.urlN8N, row.typebotSlug, message, {});
        return { ok: true, messages: turn.messages };
      }
      if (type === 'dialogflow') {
        const key = parseServiceAccount(this.#box.open(row.jsonContentEncrypted) ?? '');
        if (!key) throw invalid('jsonContent', 'Chave de conta de serviço inválida');
        const detected = await this.#dialogflow.detectIntent(
          key,
          row.projectName || key.project_id || '',
          `teste-${randomBytes(6).toString('hex')}`,
          message,
          row.language,
        );
        return { ok: true, messages: detected.messages };
      }
      if (!row.urlN8N) throw invalid('urlN8N', 'Informe a URL');
      const secret = this.#box.open(row.secretEncrypted) ?? '';
      const posted = await postSigned(
        this.#transport,
        row.urlN8N,
        secret,
        'test',
        { event: 'test', companyId: ctx.companyId, integrationId: saved?.id ?? null, message },
        SIGNATURE_HEADERS,
      );
      const ok = posted.status >= 200 && posted.status < 300;
      return {
        ok,
        messages: [`HTTP ${posted.status}`, ...(posted.text ? [posted.text] : [])],
        ...(ok ? {} : { error: 'ERR_INTEGRATION_HTTP_STATUS', status: posted.status }),
      };
    } catch (error) {
      if (!(error instanceof IntegrationError)) throw error;
      this.platform.log.info(
        { companyId: ctx.companyId, type, detail: error.message },
        'integration test failed',
      );
      return {
        ok: false,
        messages: [],
        error: error.code,
        ...(error.status === null ? {} : { status: error.status }),
      };
    }
  }

  // --- events to webhook and n8n --------------------------------------------------------------

  /**
   * The ticket's event receivers, read once for the events of one moment: a stored message
   * announces the message and its ticket together, and both go to the same receivers.
   */
  #receiversOf(db: TenantDb, ticketId: number, known?: number[]): Promise<number[]> {
    const key = `${db.companyId}:${ticketId}`;
    let found = this.#receivers.get(key);
    if (!found) {
      found = known ? Promise.resolve(known) : eventReceiversOfTicket(db, ticketId);
      this.#receivers.set(key, found);
      setImmediate(() => this.#receivers.delete(key));
    }
    return found;
  }

  async #queueEvent(
    companyId: number,
    ticket: Ticket,
    event: string,
    data: object,
    known?: number[],
  ) {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    for (const integrationId of await this.#receiversOf(db, ticket.id, known)) {
      const payload = {
        event,
        companyId,
        integrationId,
        occurredAt: new Date().toISOString(),
        ...data,
      };
      const deliveryId = await insertDelivery(db, integrationId, event, payload);
      await this.platform.jobs.send(DELIVERY_JOB, { companyId, deliveryId });
    }
  }

  /**
   * One try of a delivery: a 2xx answer delivers it; anything else is logged and thrown, so
   * the job engine tries again later, until the last try marks it failed. An address the
   * outbound guard refuses fails at once.
   */
  async deliver(companyId: number, deliveryId: number, final: boolean): Promise<void> {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const found = await deliveryById(db, deliveryId);
    if (found?.delivery.status !== 'pending') return;
    const { delivery, integration } = found;
    const secret = this.#box.open(integration.secretEncrypted) ?? '';
    let failure: {
      status: number | null;
      code: IntegrationTestError;
      error: string;
      retry: boolean;
    };
    try {
      const posted = await postSigned(
        this.#transport,
        integration.urlN8N,
        secret,
        delivery.event,
        delivery.payload,
        SIGNATURE_HEADERS,
      );
      if (posted.status >= 200 && posted.status < 300) {
        await recordAttempt(db, deliveryId, {
          status: 'delivered',
          responseStatus: posted.status,
          errorCode: null,
          lastError: null,
        });
        return;
      }
      failure = {
        status: posted.status,
        code: 'ERR_INTEGRATION_HTTP_STATUS',
        error: `HTTP ${posted.status}`,
        retry: true,
      };
    } catch (error) {
      if (!(error instanceof IntegrationError)) throw error;
      failure = { status: null, code: error.code, error: error.message, retry: !error.refused };
    }
    const givenUp = final || !failure.retry;
    await recordAttempt(db, deliveryId, {
      status: givenUp ? 'failed' : 'pending',
      responseStatus: failure.status,
      errorCode: failure.code,
      lastError: failure.error,
    });
    if (!givenUp) throw new Error(`delivery ${deliveryId}: ${failure.error}`);
  }

  // --- the bots' turn -------------------------------------------------------------------------

  /** The bot (typebot, dialogflow) that answers the ticket now, if any. */
  async botFor(db: TenantDb, ticketId: number): Promise<TicketBot | undefined> {
    const found = await integrationsOfTicket(db, await answerersOf(db, ticketId));
    if (!found || found.handedOverAt) return undefined;
    const isBot = (row: IntegrationRow | undefined): row is IntegrationRow =>
      !!row && BOT_TYPES.includes(row.type as IntegrationType);
    if (isBot(found.connection)) {
      return { integration: found.connection, contactId: found.contactId, by: 'connection' };
    }
    if (isBot(found.queue)) {
      return { integration: found.queue, contactId: found.contactId, by: 'queue' };
    }
    return undefined;
  }

  /** The bot's turn on the contact's newest message (claimed by the caller: one per burst). */
  async respond(companyId: number, ticketId: number, bot: TicketBot, text: string) {
    const db = tenantDb(systemContext(this.platform.db, companyId));
    const { integration, contactId } = bot;
    try {
      const replies =
        integration.type === 'typebot'
          ? await this.#typebotTurn(db, ticketId, contactId, integration, text)
          : await this.#dialogflowTurn(db, ticketId, contactId, integration, text);
      if (replies === 'handedOver') return;
      await this.#sendAll(companyId, ticketId, replies, integration.typebotDelayMessage);
      await markTicketIntegration(db, ticketId, integration.id);
    } catch (error) {
      if (!(error instanceof IntegrationError)) throw error;
      await this.#handOver(db, ticketId, contactId, BOT_NOTES.failed);
    }
  }

  async #typebotTurn(
    db: TenantDb,
    ticketId: number,
    contactId: number,
    integration: IntegrationRow,
    text: string,
  ): Promise<string[] | 'handedOver'> {
    const said = text.trim().toLowerCase();
    const keyword = (value: string) => value.trim() && said === value.trim().toLowerCase();
    if (keyword(integration.typebotKeywordFinish)) {
      await this.#handOver(db, ticketId, contactId, BOT_NOTES.finished);
      return 'handedOver';
    }
    if (keyword(integration.typebotKeywordRestart)) {
      await dropSession(db, ticketId);
      return integration.typebotRestartMessage ? [integration.typebotRestartMessage] : [];
    }
    let session = await sessionOfTicket(db, ticketId);
    const expiresMs = integration.typebotExpires * 60_000;
    if (
      session &&
      (session.integrationId !== integration.id ||
        (expiresMs > 0 && Date.now() - session.lastActivityAt.getTime() > expiresMs))
    ) {
      await dropSession(db, ticketId);
      session = undefined;
    }
    let turn: TypebotTurn;
    const ticket = await ticketOf(db, ticketId);
    const variables = {
      number: ticket?.contact.number ?? '',
      pushName: ticket?.contact.name ?? '',
      ticketId: String(ticketId),
    };
    if (session) {
      try {
        turn = await this.#typebot.continue(integration.urlN8N, session.sessionId, text);
      } catch (error) {
        if (!(error instanceof TypebotSessionGone)) throw error;
        turn = await this.#typebot.start(
          integration.urlN8N,
          integration.typebotSlug,
          text,
          variables,
        );
      }
    } else {
      turn = await this.#typebot.start(
        integration.urlN8N,
        integration.typebotSlug,
        text,
        variables,
      );
    }
    if (!turn.waiting) {
      // The flow ended: its last words are sent, then a person takes over.
      await this.#sendAll(db.companyId, ticketId, turn.messages, integration.typebotDelayMessage);
      await this.#handOver(db, ticketId, contactId, BOT_NOTES.ended);
      return 'handedOver';
    }
    await saveSession(db, ticketId, integration.id, turn.sessionId ?? session?.sessionId ?? '');
    if (turn.messages.length === 0 && integration.typebotUnknownMessage) {
      return [integration.typebotUnknownMessage];
    }
    return turn.messages;
  }

  async #dialogflowTurn(
    db: TenantDb,
    ticketId: number,
    contactId: number,
    integration: IntegrationRow,
    text: string,
  ): Promise<string[] | 'handedOver'> {
    const key = parseServiceAccount(this.#box.open(integration.jsonContentEncrypted) ?? '');
    if (!key)
      throw new IntegrationError(
        'ERR_INTEGRATION_BAD_KEY',
        null,
        'Dialogflow: no usable service-account key',
      );
    const detected = await this.#dialogflow.detectIntent(
      key,
      integration.projectName || key.project_id || '',
      `ticket-${ticketId}`,
      text,
      integration.language,
    );
    if (detected.endInteraction) {
      await this.#sendAll(db.companyId, ticketId, detected.messages, 0);
      await this.#handOver(db, ticketId, contactId, BOT_NOTES.ended);
      return 'handedOver';
    }
    return detected.messages;
  }

  async #sendAll(companyId: number, ticketId: number, replies: string[], delayMs: number) {
    const ctx = systemContext(this.platform.db, companyId);
    for (const [index, body] of replies.entries()) {
      if (index > 0 && delayMs > 0) await sleep(delayMs);
      // A failed send stays on the message (ack 0) for a person to retry.
      await this.outbound.send(ctx, ticketId, { body }).catch(() => undefined);
    }
  }

  async #handOver(db: TenantDb, ticketId: number, contactId: number, note: string) {
    await handOverFromBot(db, ticketId, contactId, note);
    await this.tickets.announce(db, ticketId);
  }

  // --- fields ---------------------------------------------------------------------------------

  /** The fields as stored: secrets sealed (with a hint), a masked hint kept as it is. */
  #fields(type: IntegrationType, data: QueueIntegrationUpdate): IntegrationChanges {
    const changes: IntegrationChanges = {};
    const set = <K extends keyof IntegrationChanges>(key: K, value: IntegrationChanges[K]) => {
      if (value !== undefined) changes[key] = value;
    };
    set('name', data.name);
    set('projectName', data.projectName === null ? '' : data.projectName);
    set('language', data.language ?? undefined);
    set('urlN8N', data.urlN8N === null ? '' : data.urlN8N);
    set('typebotSlug', data.typebotSlug === null ? '' : data.typebotSlug);
    set('typebotExpires', data.typebotExpires);
    set('typebotDelayMessage', data.typebotDelayMessage);
    set(
      'typebotKeywordFinish',
      data.typebotKeywordFinish === null ? '' : data.typebotKeywordFinish,
    );
    set(
      'typebotKeywordRestart',
      data.typebotKeywordRestart === null ? '' : data.typebotKeywordRestart,
    );
    set(
      'typebotUnknownMessage',
      data.typebotUnknownMessage === null ? '' : data.typebotUnknownMessage,
    );
    set(
      'typebotRestartMessage',
      data.typebotRestartMessage === null ? '' : data.typebotRestartMessage,
    );
    // For n8n, webhook and typebot, projectName is the name (spec).
    if (NAMED_PROJECT_TYPES.includes(type) && data.name !== undefined) {
      changes.projectName = data.name;
    }
    if (data.jsonContent !== undefined && !isMaskedSecret(data.jsonContent)) {
      const json = data.jsonContent ?? '';
      if (json && !parseServiceAccount(json)) {
        throw invalid('jsonContent', 'Chave de conta de serviço inválida');
      }
      changes.jsonContentEncrypted = json ? this.#box.seal(json) : null;
      changes.jsonContentHint = json ? (parseServiceAccount(json)?.client_email ?? '') : null;
    }
    if (data.secret !== undefined && !isMaskedSecret(data.secret) && data.secret) {
      changes.secretEncrypted = this.#box.seal(data.secret);
      changes.secretHint = hintOf(data.secret);
    }
    return changes;
  }

  /** What each type needs to work at all. */
  #checkComplete(row: IntegrationChanges & { type: IntegrationType }) {
    if (row.type === 'dialogflow' && !row.jsonContentEncrypted) {
      throw invalid('jsonContent', 'Obrigatório');
    }
    if (row.type !== 'dialogflow' && !row.urlN8N) throw invalid('urlN8N', 'Obrigatório');
    if (row.type === 'typebot' && !row.typebotSlug) throw invalid('typebotSlug', 'Obrigatório');
  }

  async #announce(ctx: RequestContext, id: number, action: 'create' | 'update') {
    const queueIntegration = await this.get(ctx, id);
    this.platform.events.emit('queueIntegration.saved', {
      companyId: ctx.companyId,
      action,
      queueIntegration,
    });
    return queueIntegration;
  }
}

/** An unsaved integration's defaults, for trying the dialog's fields before saving. */
function blankRow(companyId: number, type: IntegrationType): IntegrationRow {
  const now = new Date();
  return {
    id: 0,
    companyId,
    type,
    name: '',
    projectName: '',
    jsonContentEncrypted: null,
    jsonContentHint: null,
    language: 'pt-BR',
    urlN8N: '',
    typebotSlug: '',
    typebotExpires: 1,
    typebotDelayMessage: 1000,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotUnknownMessage: '',
    typebotRestartMessage: '',
    secretEncrypted: null,
    secretHint: null,
    createdAt: now,
    updatedAt: now,
  };
}
