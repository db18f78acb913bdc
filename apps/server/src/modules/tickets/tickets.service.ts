import {
  can,
  hasRole,
  SELECT_QUEUE_MESSAGE,
  TICKETS_PAGE_SIZE,
  type Ticket,
  type TicketCreate,
  type TicketListQuery,
  type TicketStatus,
  type TicketUpdate,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import type { TicketAudienceBefore } from '../../platform/events';
import type { Platform } from '../../platform/platform';
import { page, sliceMore } from '../../platform/routes';
import type { OutboundSender } from '../messages/messages.outbound';
import { resolveVariables } from '../messages/messages.variables';
import { checkBotReferences } from '../queue-integrations/queue-integrations.references';
import { readableTicket } from './tickets.access';
import {
  closingTexts,
  companySetting,
  deleteTicket,
  exists,
  insertLiveTicket,
  listedTickets,
  liveTicketOf,
  markRatingRequested,
  mediaOfTicket,
  moveTicket,
  type TicketChanges,
  ticketById,
} from './tickets.repository';

const LIVE: TicketStatus[] = ['open', 'pending'];

/** The rating question after the queue's or connection's own text (spec core 9: rating 1-3). */
export const RATING_OPTIONS =
  'Digite de 1 à 3 para qualificar nosso atendimento:\n*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_';

/** What a ticket leaving the bot's hands clears. */
const NO_BOT = { chatbot: false, botAt: null, botSince: null } as const;

const invalid = (path: string, message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path, message }] });

/** The live ticket a contact already has, answered so the client can show who holds it. */
const otherOpenTicket = (ticket: Ticket | undefined) =>
  new AppError('ERR_OTHER_OPEN_TICKET', 409, ticket ? { ticket } : {});

export class TicketsService {
  constructor(
    private readonly platform: Pick<Platform, 'db' | 'events' | 'storage'>,
    private readonly outbound: Pick<OutboundSender, 'send'>,
  ) {}

  async list(ctx: RequestContext, query: TicketListQuery) {
    const search = query.searchParam?.trim();
    const showAll = query.showAll === true && can(ctx, 'tickets:showAll', ctx.planFlags);
    const { limit, offset } = page(query.pageNumber, TICKETS_PAGE_SIZE);
    const { rows, count, countExact } = await listedTickets(
      tenantDb(ctx),
      ctx,
      {
        // The working lists show the caller's tickets and the waiting line; show-all (admins)
        // and searches show everything the caller may read.
        workingList: !(showAll || search),
        status: query.status,
        queueIds: query.queueIds,
        users: query.users,
        tags: query.tags,
        withUnreadMessages: query.withUnreadMessages,
        date: query.date,
        updatedAt: query.updatedAt,
        search,
      },
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, TICKETS_PAGE_SIZE);
    return { tickets: pageRows, count, countExact, hasMore };
  }

  get(ctx: RequestContext, id: number): Promise<Ticket> {
    return readableTicket(ctx, { id });
  }

  getByUuid(ctx: RequestContext, uuid: string): Promise<Ticket> {
    return readableTicket(ctx, { uuid });
  }

  /**
   * A ticket started by an agent. One live ticket per contact: a second one answers
   * ERR_OTHER_OPEN_TICKET with the first; concurrent creations are decided by the partial
   * unique index tickets_one_live_per_contact.
   */
  async create(ctx: RequestContext, data: TicketCreate): Promise<Ticket> {
    const db = tenantDb(ctx);
    const admin = hasRole(ctx, 'admin');
    const status = data.status ?? 'open';
    if (!data.queueId && !admin) throw invalid('body.queueId', SELECT_QUEUE_MESSAGE);
    const userId = data.userId ?? (status === 'open' ? ctx.userId : null);
    if (userId && userId !== ctx.userId && !admin) throw forbidden();

    const contact = await exists.contact(db, data.contactId);
    if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND', 404);
    const whatsappId = await this.#connectionFor(db, data.whatsappId);
    if (data.queueId && !(await exists.queue(db, data.queueId))) {
      throw invalid('body.queueId', 'Unknown queue');
    }
    if (userId && !(await exists.user(db, userId))) throw new AppError('ERR_NO_USER_FOUND', 404);

    const live = await liveTicketOf(db, contact.id);
    if (live) throw otherOpenTicket(live);
    const id = await insertLiveTicket(db, {
      contactId: contact.id,
      whatsappId,
      queueId: data.queueId ?? null,
      userId,
      status,
      isGroup: contact.isGroup,
      acceptedAt: status === 'open' && userId ? new Date() : null,
    });
    if (!id) throw otherOpenTicket(await liveTicketOf(db, contact.id, whatsappId));
    return this.#announce(db, ctx, id);
  }

  /**
   * One PUT for every transition (spec core 4). Closing wins; then a transfer (new queue,
   * connection or another agent); then accept, return and reopen by the status asked for.
   */
  async update(ctx: RequestContext, id: number, data: TicketUpdate): Promise<Ticket> {
    const current = await readableTicket(ctx, { id });
    // Carried over, not written, yet another company's integration or prompt is still refused.
    await checkBotReferences(tenantDb(ctx), data);
    const target = data.status ?? current.status;
    if (target === 'closed') return this.#resolve(ctx, current);
    if (isTransfer(ctx, current, data)) return this.#transfer(ctx, current, data);
    // An accept that arrives after another agent's: the ticket is taken, say by whom.
    if (target === 'open' && current.status === 'open' && current.userId !== ctx.userId) {
      throw otherOpenTicket(current);
    }
    if (target === current.status) return current;
    if (current.status === 'pending') return this.#accept(ctx, current);
    if (current.status === 'open') return this.#return(ctx, current);
    return this.#reopen(ctx, current, target);
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const db = tenantDb(ctx);
    const ticket = await ticketById(db, id);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND', 404);
    const files = await mediaOfTicket(db, id);
    await deleteTicket(db, id);
    this.platform.events.emit('ticket.deleted', { companyId: ctx.companyId, ticket });
    await Promise.all(files.map((key) => this.platform.storage.remove(key).catch(() => {})));
  }

  async #accept(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    const db = tenantDb(ctx);
    await this.#move(db, current, { status: 'open', userId: ctx.userId });
    if (!current.isGroup && (await companySetting(db, 'sendGreetingAccepted')) === 'enabled') {
      await this.#tell(
        ctx,
        current,
        `{{greeting}} *{{contactName}}*, meu nome é *${ctx.name}* e agora vou prosseguir com seu atendimento!`,
      );
    }
    return this.#announce(db, ctx, current.id, current);
  }

  async #return(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    if (current.userId !== ctx.userId && !hasRole(ctx, 'admin')) throw forbidden();
    const db = tenantDb(ctx);
    await this.#move(db, current, { status: 'pending', userId: null });
    return this.#announce(db, ctx, current.id, current);
  }

  async #resolve(ctx: RequestContext, current: Ticket): Promise<Ticket> {
    if (current.status === 'closed') return current;
    const db = tenantDb(ctx);
    const userId = current.userId ?? ctx.userId;
    await this.#move(db, current, {
      status: 'closed',
      // A waiting ticket closed by an agent is that agent's closed ticket.
      userId,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    if (!current.isGroup) {
      const texts = await closingTexts(db, current.id);
      if (texts.completion) await this.#tell(ctx, current, texts.completion);
      if (userId && (await companySetting(db, 'userRating')) === 'enabled') {
        // The contact's 1-3 lands on this closed ticket (the inbound statement looks for it).
        await markRatingRequested(db, current.id);
        await this.#tell(ctx, current, [texts.rating, RATING_OPTIONS].filter(Boolean).join('\n\n'));
      }
    }
    return this.#announce(db, ctx, current.id, current);
  }

  /**
   * A conversation whose contact stopped answering (the connection's `expiresTicket`): the
   * connection's message, then closed. Run by the automations' sweep.
   */
  async closeForInactivity(companyId: number, ticketId: number, message: string) {
    const ctx = systemContext(this.platform.db, companyId);
    const db = tenantDb(ctx);
    const current = await ticketById(db, ticketId);
    if (!current || !LIVE.includes(current.status)) return;
    if (message.trim()) await this.#tell(ctx, current, message);
    const closed = await moveTicket(db, current.id, current.status, {
      status: 'closed',
      finishedAt: new Date(),
      ...NO_BOT,
    }).catch(() => false);
    if (closed) await this.#announce(db, ctx, current.id, current);
  }

  async #reopen(ctx: RequestContext, current: Ticket, target: TicketStatus): Promise<Ticket> {
    const db = tenantDb(ctx);
    await this.#move(db, current, {
      status: target,
      userId: target === 'open' ? ctx.userId : null,
    });
    return this.#announce(db, ctx, current.id, current);
  }

  async #transfer(ctx: RequestContext, current: Ticket, data: TicketUpdate): Promise<Ticket> {
    const db = tenantDb(ctx);
    const queueId = data.queueId === undefined ? current.queueId : data.queueId;
    if (!queueId) throw invalid('body.queueId', SELECT_QUEUE_MESSAGE);
    const queue = await exists.queue(db, queueId);
    if (!queue) throw invalid('body.queueId', 'Unknown queue');
    const userId = data.userId ?? null;
    const user = userId ? await exists.user(db, userId) : undefined;
    if (userId && !user) throw new AppError('ERR_NO_USER_FOUND', 404);
    // A ticket is handed to another agent only in a queue that agent serves, admins included:
    // its lists and notifications follow its queues, so the ticket would sit where its holder
    // does not look. Taking it yourself is the caller's own choice (the original client's
    // accept and transfer both send the caller's id), and the caller is looking at it.
    if (userId && userId !== ctx.userId && !(await exists.queueMember(db, userId, queueId))) {
      throw new AppError('ERR_USER_NOT_IN_QUEUE', 400);
    }
    const whatsappId = data.whatsappId ?? current.whatsappId;
    if (whatsappId !== current.whatsappId && !(await exists.connection(db, whatsappId!))) {
      throw new AppError('ERR_NO_WAPP_FOUND', 404);
    }
    // With no agent the ticket waits in the new queue; an agent gets it as it was (a waiting
    // ticket stays waiting for that agent to accept).
    const status: TicketStatus = !userId
      ? 'pending'
      : data.status && data.status !== 'closed'
        ? data.status
        : current.status === 'pending'
          ? 'pending'
          : 'open';
    await this.#move(db, current, { status, userId, queueId, whatsappId });

    const movedQueue = queueId !== current.queueId;
    const movedUser = userId !== null && userId !== current.userId;
    if (
      (movedQueue || movedUser) &&
      !current.isGroup &&
      (await companySetting(db, 'sendMsgTransfTicket')) === 'enabled'
    ) {
      await this.#tell(
        ctx,
        current,
        user && movedUser
          ? `*Mensagem Automática*:\nVocê foi transferido para o atendente *${user.name}*\naguarde, já vamos te atender!`
          : `*Mensagem Automática*:\nVocê foi transferido para o departamento *${queue.name}*\naguarde, já vamos te atender!`,
      );
    }
    return this.#announce(db, ctx, current.id, current);
  }

  /**
   * Applies a transition only if the ticket is still as it was read, so two agents accepting
   * at once do not both win. A live ticket that already exists for the contact on the target
   * connection answers ERR_OTHER_OPEN_TICKET.
   */
  async #move(db: TenantDb, current: Ticket, set: TicketChanges) {
    let moved: boolean;
    try {
      // A person's move ends the bot's hold and any rating question still waiting.
      moved = await moveTicket(db, current.id, current.status, {
        ...set,
        ...NO_BOT,
        ratingRequestedAt: null,
        ...timesOf(set),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'tickets_one_live_per_contact')) {
        throw otherOpenTicket(
          await liveTicketOf(db, current.contactId, set.whatsappId ?? current.whatsappId),
        );
      }
      throw error;
    }
    if (!moved) {
      const now = await ticketById(db, current.id);
      if (now && LIVE.includes(now.status)) throw otherOpenTicket(now);
      throw new AppError('ERR_NO_TICKET_FOUND', 404);
    }
  }

  /** An automatic message to the contact; a failed send stays visible on the message itself. */
  async #tell(ctx: RequestContext, ticket: Ticket, text: string) {
    const body = resolveVariables(text, {
      contactName: ticket.contact.name,
      ticketId: ticket.id,
      ticketCreatedAt: new Date(ticket.createdAt),
      timeZone: text.includes('{{') ? await companySetting(tenantDb(ctx), 'timezone') : undefined,
    });
    await this.outbound.send(ctx, ticket.id, { body }).catch(() => undefined);
  }

  async #connectionFor(db: TenantDb, whatsappId: number | null | undefined): Promise<number> {
    if (whatsappId) {
      if (!(await exists.connection(db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', 404);
      return whatsappId;
    }
    const fallback = await exists.defaultConnection(db);
    if (!fallback) throw new AppError('ERR_NO_DEF_WAPP_FOUND', 404);
    return fallback.id;
  }

  async #announce(
    db: TenantDb,
    ctx: RequestContext,
    id: number,
    before?: TicketAudienceBefore,
  ): Promise<Ticket> {
    const ticket = (await ticketById(db, id))!;
    this.platform.events.emit('ticket.saved', {
      companyId: ctx.companyId,
      action: 'update',
      ticket,
      ...(before
        ? { previous: { status: before.status, queueId: before.queueId, userId: before.userId } }
        : {}),
    });
    return ticket;
  }
}

/**
 * The dashboard's times: a person taking the ticket open marks its first acceptance (kept once
 * set, see moveTicket), a close marks its finish, and a live ticket has none.
 */
function timesOf(set: TicketChanges): Pick<TicketChanges, 'acceptedAt' | 'finishedAt'> {
  const now = new Date();
  if (set.status === 'closed') return { finishedAt: now };
  return {
    finishedAt: null,
    ...(set.status === 'open' && set.userId ? { acceptedAt: now } : {}),
  };
}

/** A new queue, a new connection, another agent than the caller, or a transfer asked for. */
function isTransfer(ctx: RequestContext, current: Ticket, data: TicketUpdate): boolean {
  if (data.transfer) return true;
  if (data.queueId !== undefined && data.queueId !== current.queueId) return true;
  if (data.whatsappId && data.whatsappId !== current.whatsappId) return true;
  return (
    data.userId !== undefined &&
    data.userId !== null &&
    data.userId !== ctx.userId &&
    data.userId !== current.userId
  );
}
