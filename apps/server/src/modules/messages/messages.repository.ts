import { ACK, type Message, type Ticket } from '@atendi/shared';
import { and, asc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { connections, contacts, messages, tickets } from '../../db/schema';
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
    isForwarded: message.isForwarded,
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

/** A page of a ticket's conversation (see conversationOf), newest first, and its length. */
export async function conversationPage(
  db: TenantDb,
  ticket: Pick<Ticket, 'id' | 'contactId' | 'whatsappId'>,
  options: { limit: number; offset: number },
) {
  const where = conversationOf(db, ticket);
  const [rows, count] = await Promise.all([
    selectMessages(db, where)
      .orderBy(conversationOrder)
      .limit(options.limit)
      .offset(options.offset),
    db.count(messages, where),
  ]);
  return { rows, count };
}

/** The ticket a message belongs to. */
export async function ticketIdOfMessage(db: TenantDb, id: number) {
  const [row] = await db
    .select({ ticketId: messages.ticketId })
    .from(messages, eq(messages.id, id));
  return row?.ticketId;
}

/** A message with the chat it was written in (the contact's number on the network). */
export async function messageWithChat(db: TenantDb, id: number) {
  const [row] = await db
    .select({ message: messages, chatId: contacts.number, isGroup: contacts.isGroup })
    .from(messages, eq(messages.id, id))
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .limit(1);
  return row;
}

/** The message stays, marked deleted, so the conversation keeps its history. */
export async function markMessageDeleted(db: TenantDb, id: number) {
  await db.update(messages, { isDeleted: true, updatedAt: new Date() }, eq(messages.id, id));
}

/**
 * The ticket's unread count goes to zero without moving it in the lists (reading is not
 * activity), and its contact's messages are marked read; answers those just read.
 */
export function markTicketRead(db: TenantDb, ticketId: number) {
  return db.transaction(async (tx) => {
    await tx.update(
      tickets,
      { unreadMessages: 0, updatedAt: sql`${tickets.updatedAt}` },
      eq(tickets.id, ticketId),
    );
    return tx
      .update(
        messages,
        { read: true },
        and(eq(messages.ticketId, ticketId), eq(messages.read, false), eq(messages.fromMe, false))!,
      )
      .returning({
        id: messages.id,
        connectionId: messages.connectionId,
        providerMessageId: messages.providerMessageId,
        participant: messages.participant,
      });
  });
}

// Outbound: the states of a message on its way out (see messages.outbound.ts).

export type NewOutgoing = Pick<
  typeof messages.$inferInsert,
  | 'connectionId'
  | 'providerMessageId'
  | 'body'
  | 'ack'
  | 'mediaType'
  | 'mediaPath'
  | 'mediaName'
  | 'mediaMime'
  | 'quotedMsgId'
  | 'isForwarded'
>;

/** The connection a ticket's replies go through, and its provider. */
export async function sendTargetOf(db: TenantDb, ticketId: number) {
  const [target] = await db
    .select({ connectionId: tickets.whatsappId, provider: connections.provider })
    .from(tickets, eq(tickets.id, ticketId))
    .leftJoin(connections, eq(connections.id, tickets.whatsappId));
  return target;
}

/** The message, if it is one of the ticket's. */
export async function messageInTicket(db: TenantDb, id: number, ticketId: number) {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages, and(eq(messages.id, id), eq(messages.ticketId, ticketId)));
  return row;
}

/**
 * Inserts an outgoing message as waiting to be sent and moves the ticket's preview, inside the
 * caller's transaction (a schedule stores its message in the same commit as its own sending).
 * The ticket is written first, as the inbound store does: a message's insert then locks the
 * ticket's search words, so the reverse order deadlocked with a contact's message arriving.
 */
export async function insertOutgoing(
  tx: TenantDb,
  ticketId: number,
  message: NewOutgoing,
  lastMessage: string,
): Promise<number> {
  await tx.update(tickets, { lastMessage, updatedAt: new Date() }, eq(tickets.id, ticketId));
  const [row] = await tx
    .insert(messages, {
      ...message,
      ticketId,
      fromMe: true,
      read: true,
      sendState: 'pending',
    })
    .returning({ id: messages.id });
  return row!.id;
}

/** Stores an agent's message as waiting to be sent, and moves the ticket's preview. */
export function storeOutgoing(
  db: TenantDb,
  ticketId: number,
  message: NewOutgoing,
  lastMessage: string,
) {
  return db.transaction((tx) => insertOutgoing(tx, ticketId, message, lastMessage));
}

/**
 * Messages an agent forwards, in the order they were written, each with its ticket's contact
 * and connection (whose conversation shows it, see conversationOf).
 */
export function messagesToForward(db: TenantDb, ids: number[]) {
  return db
    .select({ message: messages, contactId: tickets.contactId, whatsappId: tickets.whatsappId })
    .from(messages, inArray(messages.id, ids))
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** A failed message back to pending; leaving the failed ack is the claim, so only one wins. */
export async function reopenFailed(db: TenantDb, id: number) {
  const [reopened] = await db
    .update(
      messages,
      { sendState: 'pending', ack: ACK.pending, updatedAt: new Date() },
      and(eq(messages.id, id), eq(messages.fromMe, true), eq(messages.ack, ACK.failed))!,
    )
    .returning({ id: messages.id });
  return reopened !== undefined;
}

export async function messageExists(db: TenantDb, id: number) {
  return (await db.count(messages, eq(messages.id, id))) > 0;
}

/** Moves a pending message to 'sending' for exactly one caller; a deleted one is not sent. */
export async function claimForSending(db: TenantDb, id: number) {
  const [claimed] = await db
    .update(
      messages,
      { sendState: 'sending', updatedAt: new Date() },
      and(eq(messages.id, id), eq(messages.sendState, 'pending'), eq(messages.isDeleted, false))!,
    )
    .returning({ id: messages.id });
  return claimed !== undefined;
}

/** A claim given back before anything went out: pending again, for the connection's next owner. */
export async function releaseClaim(db: TenantDb, id: number) {
  await db.update(
    messages,
    { sendState: 'pending', updatedAt: new Date() },
    and(eq(messages.id, id), eq(messages.sendState, 'sending'))!,
  );
}

/** The network took it; a tick it reported meanwhile is kept. */
export async function markSent(
  db: TenantDb,
  id: number,
  sent: { providerMessageId: string | null; ack: number },
) {
  await db.update(
    messages,
    {
      providerMessageId: sent.providerMessageId,
      ack: sql`greatest(${messages.ack}, ${sent.ack})`,
      sendState: 'sent',
      updatedAt: new Date(),
    },
    eq(messages.id, id),
  );
}

/** The send failed (ack 0): 'unknown' when the network may have taken it all the same. */
export async function markSendFailed(db: TenantDb, id: number, state: 'failed' | 'unknown') {
  await db.update(
    messages,
    { ack: ACK.failed, sendState: state, updatedAt: new Date() },
    eq(messages.id, id),
  );
}

/**
 * Sends of a connection claimed before `before` by an instance that never reported: pending
 * again when they carry our id (the network recognises a repeat), else 'unknown' and failed.
 * Answers the ids given up.
 */
export async function settleStaleSends(db: TenantDb, connectionId: number, before: Date) {
  const stale = and(
    eq(messages.connectionId, connectionId),
    eq(messages.fromMe, true),
    eq(messages.sendState, 'sending'),
    lt(messages.updatedAt, before),
  );
  await db.update(
    messages,
    { sendState: 'pending', updatedAt: new Date() },
    and(stale, sql`${messages.providerMessageId} is not null`)!,
  );
  return db
    .update(
      messages,
      { sendState: 'unknown', ack: ACK.failed, updatedAt: new Date() },
      and(stale, sql`${messages.providerMessageId} is null`)!,
    )
    .returning({ id: messages.id });
}

/** When the latest of a connection's sends in flight was claimed; undefined when none is. */
export async function newestSending(db: TenantDb, connectionId: number) {
  const [row] = await db
    .select({ at: sql<Date | null>`max(${messages.updatedAt})`.mapWith(messages.updatedAt) })
    .from(
      messages,
      and(
        eq(messages.connectionId, connectionId),
        eq(messages.fromMe, true),
        eq(messages.sendState, 'sending'),
      ),
    );
  return row?.at ?? undefined;
}

/** The oldest messages of a connection waiting to be sent. */
export function pendingSends(db: TenantDb, connectionId: number, limit: number) {
  return db
    .select({ id: messages.id })
    .from(
      messages,
      and(
        eq(messages.connectionId, connectionId),
        eq(messages.fromMe, true),
        eq(messages.sendState, 'pending'),
        eq(messages.isDeleted, false),
      ),
    )
    .orderBy(asc(messages.id))
    .limit(limit);
}

/** A message with the chat it goes to, and the message it quotes. */
export async function outgoingWithChat(db: TenantDb, id: number) {
  const [row] = await db
    .select({ message: messages, number: contacts.number, isGroup: contacts.isGroup })
    .from(messages, eq(messages.id, id))
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId));
  if (!row) return undefined;
  const { quotedMsgId } = row.message;
  const quoted = quotedMsgId
    ? (await db.selectFrom(messages, eq(messages.id, quotedMsgId)))[0]
    : undefined;
  return { ...row, quoted };
}

// Inbound: what the network reports (see messages.inbound.ts).

/** Whether the connection already stored the network's message. */
export async function isKnownMessage(
  db: TenantDb,
  connectionId: number,
  providerMessageId: string,
) {
  const found = await db.count(
    messages,
    and(eq(messages.connectionId, connectionId), eq(messages.providerMessageId, providerMessageId)),
  );
  return found > 0;
}

/** A tick from the network, only forward; answers the message it moved. */
export async function raiseAck(
  db: TenantDb,
  connectionId: number,
  providerMessageId: string,
  ack: number,
) {
  const [row] = await db
    .update(
      messages,
      { ack: sql`greatest(${messages.ack}, ${ack})`, updatedAt: new Date() },
      and(
        eq(messages.connectionId, connectionId),
        eq(messages.providerMessageId, providerMessageId),
        sql`${messages.ack} < ${ack}`,
      )!,
    )
    .returning({ id: messages.id, ticketId: messages.ticketId });
  return row;
}

/** An edit or a deletion made on the phone; answers the message it changed. */
export async function applyPhoneChange(
  db: TenantDb,
  connectionId: number,
  providerMessageId: string,
  change: { body: string; isEdited: true } | { isDeleted: true },
) {
  const [row] = await db
    .update(
      messages,
      { ...change, updatedAt: new Date() },
      and(
        eq(messages.connectionId, connectionId),
        eq(messages.providerMessageId, providerMessageId),
      )!,
    )
    .returning({ id: messages.id, ticketId: messages.ticketId });
  return row;
}
