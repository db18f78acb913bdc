import {
  can,
  hasRole,
  SELECT_QUEUE_MESSAGE,
  TICKETS_PAGE_SIZE,
  type Ticket,
  type TicketCreate,
  type TicketListQuery,
  type TicketUpdate,
  ticketListFilter,
} from '@atendi/shared';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError, forbidden } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { page, sliceMore } from '../../platform/routes';
import { checkBotReferences } from '../queue-integrations/queue-integrations.references';
import { readableTicket } from './tickets.access';
import { otherOpenTicket, type TicketLifecycle } from './tickets.lifecycle';
import {
  deleteTicket,
  exists,
  listedTickets,
  mediaOfTicket,
  ticketById,
} from './tickets.repository';

const invalid = (path: string, message: string) =>
  new AppError('ERR_VALIDATION', 400, { fields: [{ path, message }] });

/** The tickets' routes: what a caller asks is checked here, and the lifecycle moves the ticket. */
export class TicketsService {
  constructor(
    private readonly platform: Pick<Platform, 'events' | 'storage'>,
    private readonly lifecycle: Pick<
      TicketLifecycle,
      'start' | 'accept' | 'giveBack' | 'resolve' | 'reopen' | 'transfer'
    >,
  ) {}

  async list(ctx: RequestContext, query: TicketListQuery) {
    const { limit, offset } = page(query.pageNumber, TICKETS_PAGE_SIZE);
    // The lists' one rule (packages/shared): show-all only for those who may (admins).
    const filter = ticketListFilter(query, can(ctx, 'tickets:showAll', ctx.planFlags));
    const { rows, count, countExact } = await listedTickets(tenantDb(ctx), ctx, filter, {
      limit,
      offset,
    });
    const { rows: pageRows, hasMore } = sliceMore(rows, TICKETS_PAGE_SIZE);
    return { tickets: pageRows, count, countExact, hasMore };
  }

  get(ctx: RequestContext, id: number): Promise<Ticket> {
    return readableTicket(ctx, { id });
  }

  getByUuid(ctx: RequestContext, uuid: string): Promise<Ticket> {
    return readableTicket(ctx, { uuid });
  }

  /** A ticket started by an agent, once its contact, connection, queue and agent are checked. */
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
    return this.lifecycle.start(ctx, {
      contact,
      whatsappId,
      queueId: data.queueId ?? null,
      userId,
      status,
    });
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
    if (target === 'closed') return this.lifecycle.resolve(ctx, current);
    if (isTransfer(ctx, current, data)) return this.#transfer(ctx, current, data);
    // An accept that arrives after another agent's: the ticket is taken, say by whom.
    if (target === 'open' && current.status === 'open' && current.userId !== ctx.userId) {
      throw otherOpenTicket(current);
    }
    if (target === current.status) return current;
    if (current.status === 'pending') return this.lifecycle.accept(ctx, current);
    if (current.status === 'open') return this.lifecycle.giveBack(ctx, current);
    return this.lifecycle.reopen(ctx, current, target);
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

  /** A transfer's queue, agent and connection, checked before the lifecycle moves the ticket. */
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
    return this.lifecycle.transfer(ctx, current, {
      queue,
      user,
      whatsappId,
      status: data.status,
    });
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
