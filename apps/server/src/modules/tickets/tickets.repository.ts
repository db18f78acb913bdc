import { DEFAULT_SETTINGS, type Ticket } from '@atendi/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  connections,
  contacts,
  messages,
  queues,
  settings,
  tags,
  tickets,
  ticketTags,
  users,
} from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired, likePattern } from '../../platform/routes';

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

/** Newest activity first, in the order of tickets_company_updated_idx. */
export const newestFirst = sql`${tickets.updatedAt} desc nulls last, ${tickets.id} desc nulls last`;

export async function ticketsPage(
  db: TenantDb,
  where: SQL | undefined,
  limit: number,
  offset: number,
) {
  const [rows, count] = await Promise.all([
    selectTickets(db, where).orderBy(newestFirst).limit(limit).offset(offset),
    db.count(tickets, where),
  ]);
  return { rows: rows.map(presentTicket), count };
}

const SAO_PAULO = 'America/Sao_Paulo';

/** `column` within a calendar day of São Paulo; bounds, so the column's index serves it. */
export function onDay(column: typeof tickets.createdAt | typeof tickets.updatedAt, day: string) {
  return sql`(${column} >= (${day}::date)::timestamp at time zone ${SAO_PAULO}
    and ${column} < (${day}::date + 1)::timestamp at time zone ${SAO_PAULO})`;
}

/**
 * Tickets whose contact's name or number, or any message body, contains `term`. One id list
 * from the trigram indexes of contacts and messages, joined back to tickets by primary key.
 */
export function ticketSearch(db: TenantDb, term: string): SQL {
  const pattern = likePattern(term);
  // People type numbers with spaces and signs; contacts keep the digits.
  const digits = term.replace(/\D/g, '');
  const numberPattern = /^[\d\s()+.-]+$/.test(term) && digits ? likePattern(digits) : pattern;
  const companyId = db.companyId;
  return sql`${tickets.id} in (
    select m.ticket_id from ${messages} m
    where m.company_id = ${companyId} and m.body ilike ${pattern}
    union
    select t2.id from ${tickets} t2 join ${contacts} c2 on c2.id = t2.contact_id
    where t2.company_id = ${companyId} and c2.company_id = ${companyId}
      and (c2.name ilike ${pattern} or c2.number ilike ${numberPattern}))`;
}

/** Tickets that carry every one of `tagIds`. */
export function withAllTags(tagIds: number[]): SQL {
  const ids = [...new Set(tagIds)];
  return sql`${tickets.id} in (
    select tt.ticket_id from ${ticketTags} tt
    where tt.tag_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    group by tt.ticket_id having count(distinct tt.tag_id) = ${ids.length})`;
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

/** A company setting, or its default. */
export async function companySetting(db: TenantDb, key: keyof typeof DEFAULT_SETTINGS) {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings, eq(settings.key, key))
    .limit(1);
  return row?.value ?? DEFAULT_SETTINGS[key];
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

/** Storage keys of a set of tickets' media, to remove once the rows are gone. */
export async function mediaOf(db: TenantDb, where: SQL) {
  const rows = await db
    .select({ key: messages.mediaPath })
    .from(messages, and(where, sql`${messages.mediaPath} is not null`));
  return rows.map((row) => row.key!);
}
