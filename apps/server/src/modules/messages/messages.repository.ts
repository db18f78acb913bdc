import type { Message, Ticket } from '@atendi/shared';
import { and, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { contacts, messages, tickets } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { isoRequired } from '../../platform/routes';
import type { Storage } from '../../platform/storage';

const quoted = alias(messages, 'quoted');

export const messageFields = {
  message: messages,
  quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType },
  contact: { id: contacts.id, name: contacts.name, number: contacts.number },
};

export function selectMessages(db: TenantDb, where?: SQL) {
  return db
    .select(messageFields)
    .from(messages, where)
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(contacts, eq(contacts.id, messages.contactId));
}

/**
 * The messages a ticket's conversation shows: its own, then those of its contact's earlier
 * tickets on the same connection. The same connection, because that is the chat the contact
 * has with that number on the phone (another number of the company is another chat, often
 * another department), and because it is how the original product reads history. Whoever may
 * read the ticket may read its contact's history there; a ticket without a connection shows
 * only its own messages.
 */
export function conversationOf(
  db: TenantDb,
  ticket: Pick<Ticket, 'id' | 'contactId' | 'whatsappId'>,
): SQL {
  const earlier = ticket.whatsappId
    ? and(eq(tickets.whatsappId, ticket.whatsappId), lt(tickets.id, ticket.id))
    : undefined;
  const ids = db
    .select({ id: tickets.id })
    .from(
      tickets,
      and(eq(tickets.contactId, ticket.contactId), or(eq(tickets.id, ticket.id), earlier)),
    );
  // An array on the index's first column: the index hands the rows over in its order (ticket,
  // then time), so a page stops after its rows however long the history.
  return sql`${messages.ticketId} = any(array(${ids}))`;
}

/** Newest ticket first and, inside a ticket, newest first: the order of messages_ticket_created_idx. */
export const conversationOrder = sql`${messages.ticketId} desc nulls last, ${messages.createdAt} desc nulls last, ${messages.id} desc nulls last`;

type MessageRow = Awaited<ReturnType<typeof selectMessages>>[number];

export function presentMessage(row: MessageRow, storage: Storage, baseUrl = ''): Message {
  const { message } = row;
  return {
    id: message.id,
    ticketId: message.ticketId,
    body: message.isDeleted ? '' : message.body,
    fromMe: message.fromMe,
    read: message.read,
    mediaType: message.mediaType,
    mediaUrl:
      message.mediaPath && !message.isDeleted
        ? `${baseUrl}${storage.signedPath(message.mediaPath)}`
        : null,
    mediaName: message.mediaName,
    ack: message.ack,
    sendState: message.sendState,
    isDeleted: message.isDeleted,
    isEdited: message.isEdited,
    contactId: message.contactId,
    quotedMsgId: message.quotedMsgId,
    quotedMsg: row.quoted?.id ? row.quoted : null,
    contact: row.contact?.id ? row.contact : null,
    createdAt: isoRequired(message.createdAt),
    updatedAt: isoRequired(message.updatedAt),
  };
}

export async function messageById(db: TenantDb, id: number, storage: Storage) {
  const [row] = await selectMessages(db, eq(messages.id, id));
  return row ? presentMessage(row, storage) : undefined;
}
