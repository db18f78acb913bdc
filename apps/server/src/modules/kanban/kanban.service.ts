import { KANBAN_PAGE_SIZE, type KanbanQuery, type KanbanTickets, type Tag } from '@atendi/shared';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { readableTicket } from '../tickets/tickets.access';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';
import {
  addTicketTag,
  boardCards,
  kanbanTagById,
  kanbanTags,
  removeKanbanTags,
} from './kanban.repository';

/**
 * The kanban board: a lane of tickets with no kanban tag and one per kanban tag. A card moves by
 * losing its kanban tags and gaining the new lane's; each change reaches the ticket's rooms as a
 * ticket update, so every board showing it moves the card too.
 */
export class KanbanService {
  constructor(private readonly lifecycle: Pick<TicketLifecycle, 'announce'>) {}

  async tags(ctx: RequestContext): Promise<{ lista: Tag[] }> {
    return { lista: await kanbanTags(tenantDb(ctx)) };
  }

  /** One page of one lane, or (the spec's client, no `tagId`) the first page of every lane. */
  async tickets(ctx: RequestContext, query: KanbanQuery): Promise<KanbanTickets> {
    return boardCards(tenantDb(ctx), ctx, {
      queueIds: query.queueIds,
      lane: query.tagId,
      limit: KANBAN_PAGE_SIZE,
      offset: (query.pageNumber - 1) * KANBAN_PAGE_SIZE,
    });
  }

  async removeTags(ctx: RequestContext, ticketId: number): Promise<{ message: string }> {
    const ticket = await readableTicket(ctx, { id: ticketId });
    const db = tenantDb(ctx);
    if ((await removeKanbanTags(db, ticket.id)) > 0) await this.#announce(ctx, ticket.id);
    return { message: 'Ticket tags removed successfully.' };
  }

  async addTag(
    ctx: RequestContext,
    ticketId: number,
    tagId: number,
  ): Promise<{ ticketId: number; tagId: number }> {
    const ticket = await readableTicket(ctx, { id: ticketId });
    const db = tenantDb(ctx);
    const tag = await kanbanTagById(db, tagId);
    if (!tag) throw new AppError('ERR_NOT_FOUND', 404);
    if (tag.kanban !== 1) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'params.tagId', message: 'Not a kanban tag' }],
      });
    }
    await addTicketTag(db, ticket.id, tag.id);
    await this.#announce(ctx, ticket.id);
    return { ticketId: ticket.id, tagId: tag.id };
  }

  async #announce(ctx: RequestContext, ticketId: number) {
    await this.lifecycle.announce(tenantDb(ctx), ticketId);
  }
}
