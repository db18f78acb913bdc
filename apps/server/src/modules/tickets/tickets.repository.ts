import {
  SEARCH_COUNT_LIMIT,
  TICKET_LIST_ZONE,
  type Ticket,
  type TicketListFilter,
  type TicketStatus,
} from '@atendi/shared';
import { and, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  connections,
  contacts,
  messages,
  queues,
  tags,
  ticketSearchDocuments,
  tickets,
  ticketTags,
  userQueues,
  users,
} from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { isoRequired } from '../../platform/routes';
import { searchWordQueries } from '../../platform/search';
import { newestFirst, ticketVisibility } from './tickets.sql';

const assignee = alias(users, 'assignee');

// Tags through the ticket's composite keys, so they belong to the ticket's company.
const tagsOfTicket = sql<Ticket['tags']>`coalesce((
  select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
  from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
  where tt.ticket_id = ${tickets}.id), '[]'::json)`;

/** A ticket with what the lists and the conversation header show, in one query. */
export const ticketFields = {
  ticket: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  user: { id: assignee.id, name: assignee.name },
  queue: { id: queues.id, name: queues.name, color: queues.color },
  whatsapp: { id: connections.id, name: connections.name },
  tags: tagsOfTicket,
};

export function selectTickets(db: TenantDb, where?: SQL) {
  return db
    .select(ticketFields)
    .from(tickets, where)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(assignee, eq(assignee.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.whatsappId));
}

type TicketRow = Awaited<ReturnType<typeof selectTickets>>[number];

export function presentTicket(row: TicketRow): Ticket {
  const { ticket } = row;
  return {
    id: ticket.id,
    uuid: ticket.uuid,
    status: ticket.status,
    lastMessage: ticket.lastMessage,
    unreadMessages: ticket.unreadMessages,
    isGroup: ticket.isGroup,
    chatbot: ticket.chatbot,
    useIntegration: ticket.useIntegration,
    integrationId: ticket.integrationId,
    promptId: ticket.promptId,
    contactId: ticket.contactId,
    contact: row.contact,
    userId: ticket.userId,
    user: row.user,
    queueId: ticket.queueId,
    queue: row.queue,
    whatsappId: ticket.whatsappId,
    whatsapp: row.whatsapp,
    tags: row.tags,
    createdAt: isoRequired(ticket.createdAt),
    updatedAt: isoRequired(ticket.updatedAt),
  };
}

export async function ticketById(db: TenantDb, id: number): Promise<Ticket | undefined> {
  const [row] = await selectTickets(db, eq(tickets.id, id));
  return row ? presentTicket(row) : undefined;
}

/** Every ticket of a contact, as the lists show them. */
export async function ticketsOfContact(db: TenantDb, contactId: number): Promise<Ticket[]> {
  const rows = await selectTickets(db, eq(tickets.contactId, contactId));
  return rows.map(presentTicket);
}

/** How a client names a ticket: its id, or the uuid of its address in the web app. */
export type TicketRef = { id: number } | { uuid: string };

/** The ticket a client names, whoever may read it. */
export async function ticketByRef(db: TenantDb, ref: TicketRef): Promise<Ticket | undefined> {
  const where = 'id' in ref ? eq(tickets.id, ref.id) : eq(tickets.uuid, ref.uuid);
  const [row] = await selectTickets(db, where).limit(1);
  return row ? presentTicket(row) : undefined;
}

/** Whether the ticket exists and the caller may read it. */
export async function isTicketVisible(db: TenantDb, ctx: RequestContext, ticketId: number) {
  const found = await db.count(tickets, and(eq(tickets.id, ticketId), ticketVisibility(ctx)));
  return found > 0;
}

/**
 * A page of tickets, newest activity first, and how many match. The page is chosen on the tickets
 * table alone (an index walk that stops after `limit` rows, past `offset`), and only its rows are
 * joined to their contact, agent, queue, connection and tags: one statement for the rows, one for
 * the count, whatever the page size. A search counts no further than SEARCH_COUNT_LIMIT.
 */
export async function ticketsPage(
  db: TenantDb,
  where: SQL | undefined,
  options: { limit: number; offset: number; search: boolean },
) {
  const page = db
    .select({ id: tickets.id })
    .from(tickets, where)
    .orderBy(newestFirst)
    .limit(options.limit)
    .offset(options.offset);
  const [rows, count] = await Promise.all([
    selectTickets(db, sql`${tickets.id} = any(array(${page}))`).orderBy(newestFirst),
    options.search
      ? db.countUpTo(tickets, where, SEARCH_COUNT_LIMIT + 1)
      : db.count(tickets, where),
  ]);
  return {
    rows: rows.map(presentTicket),
    count: Math.min(count, options.search ? SEARCH_COUNT_LIMIT : count),
    countExact: !options.search || count <= SEARCH_COUNT_LIMIT,
  };
}

/** `column` within a calendar day of São Paulo; bounds, so the column's index serves it. */
export function onDay(column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string) {
  return sql`(${column} >= (${day}::date)::timestamp at time zone ${TICKET_LIST_ZONE}
    and ${column} < (${day}::date + 1)::timestamp at time zone ${TICKET_LIST_ZONE})`;
}

/**
 * Tickets whose search chunks (contact name and number, words of the messages) hold every word of
 * `term`; see searchWordQueries for what matches. The first word finds the candidates through the
 * GIN index; each other word is then an EXISTS on the candidate's own chunks (by its key), so the
 * planner sees one plain condition per word and no grouping of every matching chunk.
 */
export async function matchingSearch(db: TenantDb, term: string): Promise<SQL> {
  const chunks = ticketSearchDocuments;
  const [first, ...others] = await searchWordQueries(db, term);
  if (!first) return sql`false`;
  return and(
    sql`${tickets.id} in (select ${chunks.ticketId} from ${chunks}
      where ${db.scope(chunks, sql`${chunks.document} @@ ${first}`)})`,
    ...others.map(
      (query) => sql`exists (select 1 from ${chunks} c
        where c.ticket_id = ${tickets.id} and c.document @@ ${query})`,
    ),
  )!;
}

/** Tickets that carry every one of `tagIds`: one probe of ticket_tags' key per tag. */
export function withAllTags(tagIds: number[]): SQL {
  return and(
    ...[...new Set(tagIds)].map(
      (id) =>
        sql`exists (select 1 from ${ticketTags} tt where tt.ticket_id = ${tickets.id} and tt.tag_id = ${id})`,
    ),
  )!;
}

/** The contact's live (open or pending) ticket, on any connection. */
export async function liveTicketOf(db: TenantDb, contactId: number, whatsappId?: number | null) {
  const [row] = await selectTickets(
    db,
    and(
      eq(tickets.contactId, contactId),
      inArray(tickets.status, ['open', 'pending']),
      whatsappId ? eq(tickets.whatsappId, whatsappId) : undefined,
    ),
  )
    .orderBy(newestFirst)
    .limit(1);
  return row ? presentTicket(row) : undefined;
}

export const exists = {
  contact: (db: TenantDb, id: number) =>
    db
      .select({ id: contacts.id, isGroup: contacts.isGroup })
      .from(contacts, eq(contacts.id, id))
      .limit(1)
      .then((rows) => rows[0]),
  queue: (db: TenantDb, id: number) =>
    db
      .select({ id: queues.id, name: queues.name })
      .from(queues, eq(queues.id, id))
      .limit(1)
      .then((rows) => rows[0]),
  user: (db: TenantDb, id: number) =>
    db
      .select({ id: users.id, name: users.name })
      .from(users, eq(users.id, id))
      .limit(1)
      .then((rows) => rows[0]),
  /** Whether the user serves the queue (is one of its members). */
  queueMember: (db: TenantDb, userId: number, queueId: number) =>
    db
      .count(userQueues, and(eq(userQueues.userId, userId), eq(userQueues.queueId, queueId)))
      .then((found) => found > 0),
  connection: (db: TenantDb, id: number) =>
    db
      .select({ id: connections.id })
      .from(connections, eq(connections.id, id))
      .limit(1)
      .then((rows) => rows[0]),
  defaultConnection: (db: TenantDb) =>
    db
      .select({ id: connections.id })
      .from(connections, eq(connections.isDefault, true))
      .orderBy(connections.id)
      .limit(1)
      .then((rows) => rows[0]),
};

/**
 * A page of the tickets the caller may read that `filter` keeps (see ticketsPage), newest
 * activity first. Each field of the filter is written here as SQL for the one rule of the lists
 * in packages/shared (ticketListKeeps), which the web keeps its lists with; a test holds the two
 * together (tickets.list-rule.test.ts).
 */
export async function listedTickets(
  db: TenantDb,
  ctx: RequestContext,
  filter: TicketListFilter,
  options: { limit: number; offset: number },
) {
  const { search } = filter;
  const conditions: (SQL | undefined)[] = [
    ticketVisibility(ctx),
    filter.workingList ? workingList(ctx, filter.status) : undefined,
    filter.status ? eq(tickets.status, filter.status) : undefined,
    filter.queueIds?.length
      ? or(inArray(tickets.queueId, filter.queueIds), isNull(tickets.queueId))
      : undefined,
    filter.users?.length ? inArray(tickets.userId, filter.users) : undefined,
    filter.tags?.length ? withAllTags(filter.tags) : undefined,
    filter.withUnreadMessages ? gt(tickets.unreadMessages, 0) : undefined,
    filter.date ? onDay(tickets.createdAt, filter.date) : undefined,
    filter.updatedAt ? onDay(tickets.updatedAt, filter.updatedAt) : undefined,
    search ? await matchingSearch(db, search) : undefined,
  ];
  return ticketsPage(db, and(...conditions), { ...options, search: Boolean(search) });
}

/**
 * The caller's own tickets and the waiting line. Written for the status asked, so the planner is
 * not handed a condition the status filter already decides (the waiting line is all pending).
 */
function workingList(ctx: RequestContext, status: TicketStatus | undefined): SQL | undefined {
  if (status === 'pending') return undefined;
  if (status) return eq(tickets.userId, ctx.userId);
  return or(eq(tickets.userId, ctx.userId), eq(tickets.status, 'pending'));
}

export type TicketChanges = Partial<
  Pick<
    typeof tickets.$inferInsert,
    | 'status'
    | 'userId'
    | 'queueId'
    | 'whatsappId'
    | 'useIntegration'
    | 'promptId'
    | 'integrationId'
    | 'chatbot'
    | 'botAt'
    | 'botSince'
    | 'ratingRequestedAt'
    | 'acceptedAt'
    | 'finishedAt'
  >
>;

/** The texts a closing ticket may send: its queue's, else its connection's. */
export async function closingTexts(db: TenantDb, id: number) {
  const [row] = await db
    .select({
      queueCompletion: queues.complationMessage,
      queueRating: queues.ratingMessage,
      connectionCompletion: connections.complationMessage,
      connectionRating: connections.ratingMessage,
    })
    .from(tickets, eq(tickets.id, id))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.whatsappId));
  const pick = (first: string | null | undefined, second: string | null | undefined) =>
    first?.trim() || second?.trim() || '';
  return {
    completion: pick(row?.queueCompletion, row?.connectionCompletion),
    rating: pick(row?.queueRating, row?.connectionRating),
  };
}

/**
 * Inserts a live ticket, unless the contact already has one (the partial unique index
 * tickets_one_live_per_contact decides): then undefined.
 */
export async function insertLiveTicket(
  db: TenantDb,
  data: Pick<
    typeof tickets.$inferInsert,
    'contactId' | 'whatsappId' | 'queueId' | 'userId' | 'status' | 'isGroup' | 'acceptedAt'
  >,
) {
  const [row] = await db.insert(tickets, data).onConflictDoNothing().returning({ id: tickets.id });
  return row?.id;
}

/**
 * Applies a change only if the ticket is still in status `from`; says whether it did. An
 * `acceptedAt` is written only on a ticket no person has taken yet: the first taking stays.
 */
export async function moveTicket(
  db: TenantDb,
  id: number,
  from: TicketStatus,
  set: TicketChanges,
): Promise<boolean> {
  const { acceptedAt, ...changes } = set;
  const moved = await db
    .update(
      tickets,
      {
        ...changes,
        ...(acceptedAt ? { acceptedAt: sql`coalesce(${tickets.acceptedAt}, ${acceptedAt})` } : {}),
        updatedAt: new Date(),
      },
      and(eq(tickets.id, id), eq(tickets.status, from))!,
    )
    .returning({ id: tickets.id });
  return moved.length > 0;
}

/** A closed ticket now waits for its contact's rating. */
export async function markRatingRequested(db: TenantDb, id: number) {
  await db.update(tickets, { ratingRequestedAt: new Date() }, eq(tickets.id, id));
}

/** Deletes a ticket with its messages. */
export async function deleteTicket(db: TenantDb, id: number) {
  await db.delete(tickets, eq(tickets.id, id));
}

/** Storage keys of a ticket's media, to remove once its rows are gone. */
export function mediaOfTicket(db: TenantDb, id: number) {
  return mediaOf(db, eq(messages.ticketId, id));
}

/** Storage keys of the media of every ticket of a contact, to remove once the rows are gone. */
export function mediaOfContact(db: TenantDb, contactId: number) {
  return mediaOf(
    db,
    sql`${messages.ticketId} in (
      select t.id from ${tickets} t where t.company_id = ${db.companyId} and t.contact_id = ${contactId})`,
  );
}

/** Storage keys of a set of tickets' media, to remove once the rows are gone. */
async function mediaOf(db: TenantDb, where: SQL) {
  const rows = await db
    .select({ key: messages.mediaPath })
    .from(messages, and(where, sql`${messages.mediaPath} is not null`));
  return rows.map((row) => row.key!);
}

/**
 * What a ticket's connection and queue name to answer it (a prompt, a bot integration), with
 * when a bot last handed it to a person: the connection's ahead of the queue's for both.
 */
export async function ticketAnswerers(db: TenantDb, ticketId: number) {
  const [row] = await db
    .select({
      handedOverAt: tickets.aiHandedOverAt,
      contactId: tickets.contactId,
      connectionPromptId: connections.promptId,
      queuePromptId: queues.promptId,
      connectionIntegrationId: connections.integrationId,
      queueIntegrationId: queues.integrationId,
    })
    .from(tickets, eq(tickets.id, ticketId))
    .leftJoin(
      connections,
      and(eq(connections.companyId, tickets.companyId), eq(connections.id, tickets.whatsappId)),
    )
    .leftJoin(queues, and(eq(queues.companyId, tickets.companyId), eq(queues.id, tickets.queueId)))
    .limit(1);
  return row;
}
