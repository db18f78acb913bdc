import {
  and,
  asc,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  ne,
  notInArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import { chatMessages, chats, chatUsers, users } from '../../db/schema';
import type { TenantDb } from '../../db/tenant';
import { likePattern } from '../../platform/routes';

export type ChatRow = typeof chats.$inferSelect;
export interface MemberRow {
  chatId: number;
  userId: number;
  unreads: number;
  name: string;
}
export interface ChatMessageRow {
  id: number;
  chatId: number;
  senderId: number | null;
  senderName: string | null;
  message: string;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date;
}

const membership = (db: TenantDb, userId: number) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(chatUsers, and(eq(chatUsers.chatId, chats.id), eq(chatUsers.userId, userId))),
  );

/** A page of the chats the user is a member of, the latest active first. */
export async function chatsOfMember(
  db: TenantDb,
  userId: number,
  filter: { search?: string },
  options: { limit: number; offset: number },
) {
  const where = and(
    membership(db, userId),
    filter.search ? ilike(chats.title, likePattern(filter.search)) : undefined,
  );
  const [rows, count] = await Promise.all([
    db
      .selectFrom(chats, where)
      .orderBy(desc(chats.updatedAt), desc(chats.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(chats, where),
  ]);
  return { rows, count };
}

/** The chat, by id or uuid, when the user is one of its members. */
export async function chatOfMember(db: TenantDb, ref: number | string, userId: number) {
  const [row] = await db.selectFrom(
    chats,
    and(typeof ref === 'number' ? eq(chats.id, ref) : eq(chats.uuid, ref), membership(db, userId)),
  );
  return row;
}

export async function chatById(db: TenantDb, id: number) {
  const [row] = await db.selectFrom(chats, eq(chats.id, id));
  return row;
}

/** Members of the chats with their names, in the order they were added. */
export async function membersOf(db: TenantDb, chatIds: number[]): Promise<MemberRow[]> {
  if (chatIds.length === 0) return [];
  return (
    db
      .select({
        chatId: chatUsers.chatId,
        userId: chatUsers.userId,
        unreads: chatUsers.unreads,
        name: users.name,
      })
      .from(chatUsers, inArray(chatUsers.chatId, chatIds))
      // the composite key (company_id, user_id) keeps the user inside the company
      .innerJoin(users, eq(users.id, chatUsers.userId))
      .orderBy(asc(chatUsers.createdAt), asc(chatUsers.userId))
  );
}

/** The ids among `ids` that are users of the company. */
export async function companyUserIds(db: TenantDb, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: users.id }).from(users, inArray(users.id, ids));
  return rows.map((row) => row.id);
}

export async function insertChat(
  db: TenantDb,
  data: { title: string; ownerId: number },
  memberIds: number[],
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(chats, data).returning({ id: chats.id });
    await tx.insert(
      chatUsers,
      memberIds.map((userId) => ({ chatId: row!.id, userId })),
    );
    return row!.id;
  });
}

/** Renames the chat and, when given, makes `memberIds` its members; answers the removed ones. */
export async function updateChat(
  db: TenantDb,
  id: number,
  data: { title?: string },
  memberIds?: number[],
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.update(chats, { ...data, updatedAt: new Date() }, eq(chats.id, id));
    if (!memberIds) return [];
    const removed = await tx
      .delete(
        chatUsers,
        and(eq(chatUsers.chatId, id), notInArray(chatUsers.userId, memberIds)) as SQL,
      )
      .returning({ userId: chatUsers.userId });
    await tx
      .insert(
        chatUsers,
        memberIds.map((userId) => ({ chatId: id, userId })),
      )
      .onConflictDoNothing();
    return removed.map((row) => row.userId);
  });
}

export async function deleteChat(db: TenantDb, id: number) {
  await db.delete(chats, eq(chats.id, id));
}

/** A page of the chat's messages, newest first. */
export async function messagesPage(
  db: TenantDb,
  chatId: number,
  options: { limit: number; offset: number },
) {
  const where = eq(chatMessages.chatId, chatId);
  const [rows, count] = await Promise.all([
    db
      .select({
        id: chatMessages.id,
        chatId: chatMessages.chatId,
        senderId: chatMessages.senderId,
        senderName: users.name,
        message: chatMessages.message,
        mediaPath: chatMessages.mediaPath,
        mediaName: chatMessages.mediaName,
        createdAt: chatMessages.createdAt,
      })
      .from(chatMessages, where)
      .leftJoin(users, eq(users.id, chatMessages.senderId))
      .orderBy(desc(chatMessages.id))
      .limit(options.limit)
      .offset(options.offset),
    db.count(chatMessages, where),
  ]);
  return { rows: rows as ChatMessageRow[], count };
}

/**
 * Stores a member's message: the chat's preview and time move, and every other member has one
 * more unread message. One commit.
 */
export async function insertChatMessage(
  db: TenantDb,
  data: { chatId: number; senderId: number; message: string },
): Promise<{ id: number; createdAt: Date }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(chatMessages, data)
      .returning({ id: chatMessages.id, createdAt: chatMessages.createdAt });
    await tx.update(
      chats,
      { lastMessage: data.message, updatedAt: row!.createdAt },
      eq(chats.id, data.chatId),
    );
    await tx.update(
      chatUsers,
      { unreads: sql`${chatUsers.unreads} + 1` },
      and(eq(chatUsers.chatId, data.chatId), ne(chatUsers.userId, data.senderId)) as SQL,
    );
    return row!;
  });
}

/** Clears the member's unread count; false when it had none. */
export async function markChatRead(db: TenantDb, chatId: number, userId: number) {
  const rows = await db
    .update(
      chatUsers,
      { unreads: 0 },
      and(
        eq(chatUsers.chatId, chatId),
        eq(chatUsers.userId, userId),
        ne(chatUsers.unreads, 0),
      ) as SQL,
    )
    .returning({ userId: chatUsers.userId });
  return rows.length > 0;
}
