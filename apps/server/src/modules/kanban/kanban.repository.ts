import type { Tag, Ticket } from '@atendi/shared';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { tags, tickets, ticketTags } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { isoRequired } from '../../platform/routes';
import {
  newestFirst,
  presentTicket,
  selectTickets,
  ticketVisibility,
} from '../tickets/tickets.repository';

/** Which lane: a kanban tag's, or the one of tickets with none ('Em aberto'). */
export type Lane = { tagId: number } | 'open';

/**
 * The board's tickets for the caller: live ones (open or pending) it may read, of `queueIds` and
 * of no queue when those are given.
 */
function boardTickets(ctx: RequestContext, queueIds: number[] | undefined): SQL | undefined {
  return and(
    inArray(tickets.status, ['open', 'pending']),
    ticketVisibility(ctx),
    queueIds?.length ? or(inArray(tickets.queueId, queueIds), isNull(tickets.queueId)) : undefined,
  );
}

// A probe of ticket_tags' key per ticket; tags joined through the company's composite keys.
const inLane = (lane: Lane): SQL =>
  lane === 'open'
    ? sql`not exists (select 1 from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
        where tt.ticket_id = ${tickets.id} and tg.kanban = 1)`
    : sql`exists (select 1 from ${ticketTags} tt
        where tt.ticket_id = ${tickets.id} and tt.tag_id = ${lane.tagId})`;

/**
 * One page of a lane, newest activity first, and whether more follow. The page is chosen on the
 * tickets table (an index walk that stops after `limit + 1` rows) and only its rows are joined
 * to what a card shows; nothing is counted.
 */
export async function laneTickets(
  db: TenantDb,
  ctx: RequestContext,
  lane: Lane,
  options: { queueIds?: number[]; limit: number; offset: number },
): Promise<{ tickets: Ticket[]; hasMore: boolean }> {
  const page = db
    .select({ id: tickets.id })
    .from(tickets, and(boardTickets(ctx, options.queueIds), inLane(lane)))
    .orderBy(newestFirst)
    .limit(options.limit + 1)
    .offset(options.offset);
  const rows = await selectTickets(db, sql`${tickets.id} = any(array(${page}))`).orderBy(
    newestFirst,
  );
  return {
    tickets: rows.slice(0, options.limit).map(presentTicket),
    hasMore: rows.length > options.limit,
  };
}

/** The company's kanban tags by name: the board's lanes after 'Em aberto'. */
export async function kanbanTags(db: TenantDb): Promise<Tag[]> {
  const rows = await db.selectFrom(tags, eq(tags.kanban, 1)).orderBy(tags.name, tags.id);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    color: row.color,
    kanban: row.kanban,
    createdAt: isoRequired(row.createdAt),
    updatedAt: isoRequired(row.updatedAt),
  }));
}

export async function kanbanTagById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(tags, eq(tags.id, id));
  return row;
}

/** Takes the ticket's kanban tags off it; its other tags stay. */
export async function removeKanbanTags(db: TenantDb, ticketId: number): Promise<number> {
  const removed = await db
    .delete(
      ticketTags,
      sql`${ticketTags.ticketId} = ${ticketId} and ${ticketTags.tagId} in
        (select ${tags.id} from ${tags} where ${db.scope(tags, eq(tags.kanban, 1))})`,
    )
    .returning({ tagId: ticketTags.tagId });
  return removed.length;
}

/** Links the tag to the ticket (a second link of the same pair is the first one). */
export async function addTicketTag(db: TenantDb, ticketId: number, tagId: number) {
  await db.insert(ticketTags, { ticketId, tagId }).onConflictDoNothing();
}
