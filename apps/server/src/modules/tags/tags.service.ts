import {
  DEFAULT_PAGE_SIZE,
  hasRole,
  type ListQuery,
  type Tag,
  type TagCreate,
  type TagSync,
  type TagUpdate,
  type Ticket,
} from '@atendi/shared';
import { isUniqueViolation } from '../../db/errors';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { page, sliceMore } from '../../platform/routes';
import { readableTicket } from '../tickets/tickets.access';
import type { TicketLifecycle } from '../tickets/tickets.lifecycle';
import {
  countTags,
  deleteTag,
  insertTag,
  setTicketTags,
  tagById,
  tagsMatching,
  tagsPage,
  updateTag,
} from './tags.repository';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

/** Whether a tag is a kanban lane is the admins' choice (spec administration 6). */
function mayToggleKanban(ctx: RequestContext, kanban: number | undefined, current: number) {
  if (kanban === undefined || kanban === current || hasRole(ctx, 'admin')) return;
  throw new AppError('ERR_NO_PERMISSION', 403);
}

async function unique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, 'tags_company_name_key')) {
      throw new AppError('ERR_VALIDATION', 409, {
        fields: [{ path: 'body.name', message: 'Already exists' }],
      });
    }
    throw error;
  }
}

export class TagsService {
  constructor(
    private readonly platform: Pick<Platform, 'events'>,
    private readonly tickets: Pick<TicketLifecycle, 'announce'>,
  ) {}

  async list(ctx: RequestContext, query: ListQuery) {
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const { rows, count } = await tagsPage(tenantDb(ctx), query.searchParam?.trim(), {
      limit,
      offset,
    });
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return { tags: pageRows, count, hasMore };
  }

  listAll(ctx: RequestContext, query: { kanban?: number; searchParam?: string }): Promise<Tag[]> {
    return tagsMatching(tenantDb(ctx), {
      kanban: query.kanban,
      search: query.searchParam?.trim(),
    });
  }

  async get(ctx: RequestContext, id: number): Promise<Tag> {
    const tag = await tagById(tenantDb(ctx), id);
    if (!tag) throw notFound();
    return tag;
  }

  async create(ctx: RequestContext, data: TagCreate): Promise<Tag> {
    mayToggleKanban(ctx, data.kanban, 0);
    const tag = await unique(
      insertTag(tenantDb(ctx), { name: data.name, color: data.color, kanban: data.kanban }),
    );
    this.platform.events.emit('tag.saved', { companyId: ctx.companyId, action: 'create', tag });
    return tag;
  }

  async update(ctx: RequestContext, id: number, data: TagUpdate): Promise<Tag> {
    if (data.kanban !== undefined && !hasRole(ctx, 'admin')) {
      const current = await tagById(tenantDb(ctx), id);
      if (!current) throw notFound();
      mayToggleKanban(ctx, data.kanban, current.kanban);
    }
    const tag = await unique(
      updateTag(tenantDb(ctx), id, { name: data.name, color: data.color, kanban: data.kanban }),
    );
    if (!tag) throw notFound();
    this.platform.events.emit('tag.saved', { companyId: ctx.companyId, action: 'update', tag });
    return tag;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    if (!(await deleteTag(tenantDb(ctx), id))) throw notFound();
    this.platform.events.emit('tag.deleted', { companyId: ctx.companyId, tagId: id });
  }

  /** The ticket's tags become exactly `tags`; the lists hear of the ticket. */
  async sync(ctx: RequestContext, data: TagSync): Promise<Ticket> {
    const ticket = await readableTicket(ctx, { id: data.ticketId });
    const db = tenantDb(ctx);
    const ids = [...new Set(data.tags.map((tag) => tag.id))];
    if (ids.length > 0 && (await countTags(db, ids)) !== ids.length) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.tags', message: 'Unknown tag' }],
      });
    }
    await setTicketTags(db, ticket.id, ids);
    return (await this.tickets.announce(db, ticket.id))!;
  }
}
