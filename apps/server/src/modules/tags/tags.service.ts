import {
  DEFAULT_PAGE_SIZE,
  type ListQuery,
  type Tag,
  type TagCreate,
  type TagSync,
  type TagUpdate,
  type Ticket,
} from '@atendi/shared';
import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { tags, tickets, ticketTags } from '../../db/schema';
import { tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { Platform } from '../../platform/platform';
import { isoRequired, likePattern, page, sliceMore } from '../../platform/routes';
import { readableTicket } from '../tickets/tickets.access';
import { ticketById } from '../tickets/tickets.repository';

const present = (row: typeof tags.$inferSelect): Tag => ({
  id: row.id,
  name: row.name,
  color: row.color,
  kanban: row.kanban,
  createdAt: isoRequired(row.createdAt),
  updatedAt: isoRequired(row.updatedAt),
});

// Keyed by a tag read through the company filter; ticket_tags' composite keys keep its tickets
// inside the company. Counted on ticket_tags_tag_idx.
const ticketsCount = sql<number>`(select count(*)::int from ${ticketTags} tt where tt.tag_id = ${tags}.id)`;

const notFound = () => new AppError('ERR_NOT_FOUND', 404);

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
  constructor(private readonly platform: Pick<Platform, 'events'>) {}

  async list(ctx: RequestContext, query: ListQuery) {
    const db = tenantDb(ctx);
    const search = query.searchParam?.trim();
    const where = search ? ilike(tags.name, likePattern(search)) : undefined;
    const { limit, offset } = page(query.pageNumber, DEFAULT_PAGE_SIZE);
    const [rows, count] = await Promise.all([
      db
        .select({ tag: tags, ticketsCount })
        .from(tags, where)
        .orderBy(asc(tags.name), asc(tags.id))
        .limit(limit)
        .offset(offset),
      db.count(tags, where),
    ]);
    const { rows: pageRows, hasMore } = sliceMore(rows, DEFAULT_PAGE_SIZE);
    return {
      tags: pageRows.map((row) => ({ ...present(row.tag), ticketsCount: row.ticketsCount })),
      count,
      hasMore,
    };
  }

  async listAll(
    ctx: RequestContext,
    query: { kanban?: number; searchParam?: string },
  ): Promise<Tag[]> {
    const search = query.searchParam?.trim();
    const rows = await tenantDb(ctx)
      .selectFrom(
        tags,
        and(
          query.kanban === undefined ? undefined : eq(tags.kanban, query.kanban),
          search ? ilike(tags.name, likePattern(search)) : undefined,
        ),
      )
      .orderBy(asc(tags.name));
    return rows.map(present);
  }

  async get(ctx: RequestContext, id: number): Promise<Tag> {
    const [row] = await tenantDb(ctx).selectFrom(tags, eq(tags.id, id));
    if (!row) throw notFound();
    return present(row);
  }

  async create(ctx: RequestContext, data: TagCreate): Promise<Tag> {
    const [row] = await unique(
      tenantDb(ctx)
        .insert(tags, { name: data.name, color: data.color, kanban: data.kanban })
        .returning(),
    );
    const tag = present(row!);
    this.platform.events.emit('tag.saved', { companyId: ctx.companyId, action: 'create', tag });
    return tag;
  }

  async update(ctx: RequestContext, id: number, data: TagUpdate): Promise<Tag> {
    const [row] = await unique(
      tenantDb(ctx)
        .update(
          tags,
          { name: data.name, color: data.color, kanban: data.kanban, updatedAt: new Date() },
          eq(tags.id, id),
        )
        .returning(),
    );
    if (!row) throw notFound();
    const tag = present(row);
    this.platform.events.emit('tag.saved', { companyId: ctx.companyId, action: 'update', tag });
    return tag;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const deleted = await tenantDb(ctx).delete(tags, eq(tags.id, id)).returning({ id: tags.id });
    if (deleted.length === 0) throw notFound();
    this.platform.events.emit('tag.deleted', { companyId: ctx.companyId, tagId: id });
  }

  /** The ticket's tags become exactly `tags`; the lists hear of the ticket. */
  async sync(ctx: RequestContext, data: TagSync): Promise<Ticket> {
    const ticket = await readableTicket(ctx, eq(tickets.id, data.ticketId));
    const db = tenantDb(ctx);
    const ids = [...new Set(data.tags.map((tag) => tag.id))];
    if (ids.length > 0 && (await db.count(tags, inArray(tags.id, ids))) !== ids.length) {
      throw new AppError('ERR_VALIDATION', 400, {
        fields: [{ path: 'body.tags', message: 'Unknown tag' }],
      });
    }
    await db.transaction(async (tx) => {
      await tx.delete(ticketTags, eq(ticketTags.ticketId, ticket.id));
      if (ids.length > 0) {
        await tx.insert(
          ticketTags,
          ids.map((tagId) => ({ ticketId: ticket.id, tagId })),
        );
      }
    });
    const saved = (await ticketById(db, ticket.id))!;
    this.platform.events.emit('ticket.saved', {
      companyId: ctx.companyId,
      action: 'update',
      ticket: saved,
    });
    return saved;
  }
}
