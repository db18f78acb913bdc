import type { Ticket } from '@atendi/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { connections, contacts, queues, tags, tickets, ticketTags, users } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';

const assignee = alias(users, 'assignee');

// Tags through the ticket's composite keys, so they belong to the ticket's company.
const tagsOfTicket = sql<Ticket['tags']>`coalesce((
  select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) order by tg.name)
  from ${ticketTags} tt join ${tags} tg on tg.id = tt.tag_id
  where tt.ticket_id = ${tickets.id}), '[]'::json)`;

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
