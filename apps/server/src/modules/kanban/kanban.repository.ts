import { type KanbanCard, OPEN_LANE, type Tag } from '@atendi/shared';
import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { contacts, tags, tickets, ticketTags } from '../../db/schema';
import { runNamed, type TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { isoRequired } from '../../platform/routes';
import { newestFirst, ticketVisibility } from '../tickets/tickets.sql';

/**
 * The board's tickets for the caller: live ones (open or pending) it may read, of `queueIds` and
 * of no queue when those are given.
 */
function boardTickets(ctx: RequestContext, queueIds: number[] | undefined): SQL | undefined {
  return and(
    // Written out, not bound: a plan kept for any parameters must still see the predicate of
    // tickets_company_lane_updated_idx.
    sql`${tickets.status} in ('open', 'pending')`,
    ticketVisibility(ctx),
    // One array parameter, whatever its length: the board's statement keeps one text.
    queueIds?.length
      ? or(sql`${tickets.queueId} = any(${sql.param(queueIds)}::int[])`, isNull(tickets.queueId))
      : undefined,
  );
}

type PageOptions = { queueIds?: number[]; limit: number; offset: number };

/** One page of a lane and one more row (whether more follow), newest activity first. */
const lanePage = <F extends SelectedFields>(
  db: TenantDb,
  ctx: RequestContext,
  fields: F,
  lane: SQL,
  options: PageOptions,
) =>
  db
    .select(fields)
    .from(tickets, and(boardTickets(ctx, options.queueIds), lane))
    .orderBy(newestFirst)
    .limit(options.limit + 1)
    .offset(options.offset);

/**
 * A page of every lane (`lane` absent: the spec's board) or of one, in one statement however
 * many lanes there are: each lane is a walk of tickets_company_lane_updated_idx on
 * tickets.kanban_lane (kept by triggers), stopped after `limit + 1` rows, 'Em aberto' alone and
 * the kanban tags' lanes through a lateral. Only the pages' rows become cards, built as JSON by
 * PostgreSQL (no row mapping). A card is in one lane, so none repeats.
 */
export async function boardCards(
  db: TenantDb,
  ctx: RequestContext,
  options: PageOptions & { lane?: number },
): Promise<{ tickets: KanbanCard[]; hasMore: boolean }> {
  const openLane = () =>
    lanePage(
      db,
      ctx,
      {
        lane: sql<number>`${OPEN_LANE}::int`.as('lane'),
        id: sql<number>`${tickets.id}`.as('page_id'),
      },
      eq(tickets.kanbanLane, OPEN_LANE),
      options,
    );
  const tagLanes = () => {
    const page = lanePage(db, ctx, { id: tickets.id }, eq(tickets.kanbanLane, tags.id), options).as(
      'lane_page',
    );
    const kanban = and(eq(tags.kanban, 1), options.lane ? eq(tags.id, options.lane) : undefined);
    return db
      .select({
        lane: sql<number>`${tags.id}`.as('lane'),
        id: sql<number>`${page.id}`.as('page_id'),
      })
      .from(tags, kanban)
      .crossJoinLateral(page);
  };
  const pages = (
    options.lane === undefined
      ? openLane().unionAll(tagLanes())
      : options.lane === OPEN_LANE
        ? openLane()
        : tagLanes()
  ).as('pages');
  // The company's tags as a map by id: an uncorrelated sub-query, so read once per board (an
  // InitPlan), however many cards look their tags up in it.
  const tagsById = sql`(select jsonb_object_agg(${tags.id}, jsonb_build_object('id', ${tags.id},
    'name', ${tags.name}, 'color', ${tags.color})) from ${tags} where ${db.scope(tags)})`;
  const tagOf = sql`${tagsById} -> ${ticketTags.tagId}::text`;
  const card = sql<KanbanCard>`json_build_object(
    'id', ${tickets.id}, 'uuid', ${tickets.uuid}, 'status', ${tickets.status},
    'lastMessage', ${tickets.lastMessage}, 'unreadMessages', ${tickets.unreadMessages},
    'contactId', ${tickets.contactId},
    'contact', json_build_object('id', ${contacts.id}, 'name', ${contacts.name},
      'number', ${contacts.number}, 'profilePicUrl', ${contacts.profilePicUrl},
      'isGroup', ${contacts.isGroup}),
    'userId', ${tickets.userId}, 'queueId', ${tickets.queueId},
    'tags', coalesce((select json_agg(${tagOf} order by ${tagOf} ->> 'name') from ${ticketTags}
      where ${ticketTags.ticketId} = ${tickets.id}), '[]'::json),
    'updatedAt', to_char(${tickets.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  // Named: planning it (a union, a lateral, the cards' JSON) costs more than running it.
  const rows = await runNamed(
    'kanban_board',
    db
      .select({ lane: pages.lane, card })
      .from(tickets)
      .innerJoin(pages, eq(pages.id, tickets.id))
      .innerJoin(contacts, eq(contacts.id, tickets.contactId))
      .orderBy(newestFirst),
  );
  const shown: KanbanCard[] = [];
  const perLane = new Map<number, number>();
  for (const row of rows) {
    const taken = perLane.get(row.lane) ?? 0;
    perLane.set(row.lane, taken + 1);
    if (taken < options.limit) shown.push(row.card);
  }
  return {
    tickets: shown,
    hasMore: [...perLane.values()].some((count) => count > options.limit),
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
