import type { Message } from '@atendi/shared';
import { eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { contacts, messages } from '../../db/schema';
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
