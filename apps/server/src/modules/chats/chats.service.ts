import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type Chat,
  type ChatCreate,
  type ChatListQuery,
  type ChatMessage,
  type ChatMessageCreate,
  type ChatUpdate,
  chatCreateSchema,
  chatUpdateSchema,
} from '@atendi/shared';
import { type TenantDb, tenantDb } from '../../db/tenant';
import type { RequestContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import { isoRequired, page, sliceMore } from '../../platform/routes';
import type { ServiceDeps } from '../deps';
import {
  type ChatMessageRow,
  type ChatRow,
  chatById,
  chatOfMember,
  chatsOfMember,
  companyUserIds,
  deleteChat,
  insertChat,
  insertChatMessage,
  markChatRead,
  membersOf,
  messagesPage,
  updateChat,
} from './chats.repository';

const notFound = () => new AppError('ERR_NOT_FOUND', 404);
const ownerOnly = () => new AppError('ERR_NO_PERMISSION', 403);
const unknownUsers = () =>
  new AppError('ERR_VALIDATION', 400, {
    fields: [{ path: 'body.users', message: 'Unknown user' }],
  });

/**
 * Internal chat: conversations between users of one company. A chat is seen by its members only
 * (others, admins included, get 404); its owner alone changes or deletes it. Each member counts
 * the messages of others it has not read.
 */
export class ChatsService {
  constructor(private readonly platform: Pick<ServiceDeps, 'events' | 'storage'>) {}

  async #present(db: TenantDb, rows: ChatRow[]): Promise<Chat[]> {
    const members = await membersOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      uuid: row.uuid,
      title: row.title,
      ownerId: row.ownerId,
      lastMessage: row.lastMessage,
      createdAt: isoRequired(row.createdAt),
      updatedAt: isoRequired(row.updatedAt),
      users: members
        .filter((member) => member.chatId === row.id)
        .map((member) => ({
          userId: member.userId,
          unreads: member.unreads,
          user: { id: member.userId, name: member.name },
        })),
    }));
  }

  async #chat(db: TenantDb, id: number): Promise<Chat> {
    const row = await chatById(db, id);
    if (!row) throw notFound();
    const [chat] = await this.#present(db, [row]);
    return chat!;
  }

  /** The chat when the caller is a member; 404 otherwise, so others learn nothing of it. */
  async #memberChat(ctx: RequestContext, ref: number | string) {
    const db = tenantDb(ctx);
    const row = await chatOfMember(db, ref, ctx.userId);
    if (!row) throw notFound();
    return { db, row };
  }

  /** The members a request names, all users of the company, the owner always among them. */
  async #members(db: TenantDb, ownerId: number, ids: number[]): Promise<number[]> {
    const wanted = [...new Set([ownerId, ...ids])];
    const found = await companyUserIds(db, wanted);
    if (found.length !== wanted.length) throw unknownUsers();
    return wanted;
  }

  #present1(row: ChatMessageRow): ChatMessage {
    return {
      id: row.id,
      chatId: row.chatId,
      senderId: row.senderId,
      sender:
        row.senderId !== null && row.senderName !== null
          ? { id: row.senderId, name: row.senderName }
          : null,
      message: row.message,
      mediaPath: row.mediaPath ? this.platform.storage.signedPath(row.mediaPath) : null,
      mediaName: row.mediaPath ? row.mediaName : null,
      createdAt: isoRequired(row.createdAt),
    };
  }

  async list(ctx: RequestContext, query: ChatListQuery) {
    const db = tenantDb(ctx);
    const { limit, offset } = page(query.pageNumber, CHATS_PAGE_SIZE);
    const { rows, count } = await chatsOfMember(
      db,
      ctx.userId,
      { search: query.searchParam?.trim() || undefined },
      { limit, offset },
    );
    const { rows: pageRows, hasMore } = sliceMore(rows, CHATS_PAGE_SIZE);
    return { records: await this.#present(db, pageRows), count, hasMore };
  }

  async get(ctx: RequestContext, ref: number | string): Promise<Chat> {
    const { db, row } = await this.#memberChat(ctx, ref);
    const [chat] = await this.#present(db, [row]);
    return chat!;
  }

  async create(ctx: RequestContext, input: ChatCreate): Promise<Chat> {
    const data = chatCreateSchema.parse(input);
    const db = tenantDb(ctx);
    const memberIds = await this.#members(db, ctx.userId, data.users);
    const id = await insertChat(db, { title: data.title, ownerId: ctx.userId }, memberIds);
    const chat = await this.#chat(db, id);
    this.platform.events.emit('chat.saved', { companyId: ctx.companyId, action: 'create', chat });
    return chat;
  }

  async update(ctx: RequestContext, id: number, input: ChatUpdate): Promise<Chat> {
    const data = chatUpdateSchema.parse(input);
    const { db, row } = await this.#memberChat(ctx, id);
    if (row.ownerId !== ctx.userId) throw ownerOnly();
    const memberIds = data.users ? await this.#members(db, ctx.userId, data.users) : undefined;
    const removed = await updateChat(
      db,
      id,
      data.title !== undefined ? { title: data.title } : {},
      memberIds,
    );
    const chat = await this.#chat(db, id);
    this.platform.events.emit('chat.saved', {
      companyId: ctx.companyId,
      action: 'update',
      chat,
      removedUserIds: removed,
    });
    return chat;
  }

  async remove(ctx: RequestContext, id: number): Promise<void> {
    const { db, row } = await this.#memberChat(ctx, id);
    if (row.ownerId !== ctx.userId) throw ownerOnly();
    const members = await membersOf(db, [id]);
    await deleteChat(db, id);
    this.platform.events.emit('chat.deleted', {
      companyId: ctx.companyId,
      chatId: id,
      memberIds: members.map((member) => member.userId),
    });
  }

  async messages(ctx: RequestContext, id: number, pageNumber: number) {
    const { db } = await this.#memberChat(ctx, id);
    const { limit, offset } = page(pageNumber, CHAT_MESSAGES_PAGE_SIZE);
    const { rows, count } = await messagesPage(db, id, { limit, offset });
    const { rows: pageRows, hasMore } = sliceMore(rows, CHAT_MESSAGES_PAGE_SIZE);
    return {
      records: pageRows.reverse().map((row) => this.#present1(row)),
      count,
      hasMore,
    };
  }

  async send(ctx: RequestContext, id: number, input: ChatMessageCreate): Promise<ChatMessage> {
    const { db } = await this.#memberChat(ctx, id);
    const stored = await insertChatMessage(db, {
      chatId: id,
      senderId: ctx.userId,
      message: input.message,
    });
    const chat = await this.#chat(db, id);
    const sender = chat.users.find((member) => member.userId === ctx.userId)?.user ?? null;
    const message: ChatMessage = {
      id: stored.id,
      chatId: id,
      senderId: ctx.userId,
      sender,
      message: input.message,
      mediaPath: null,
      mediaName: null,
      createdAt: isoRequired(stored.createdAt),
    };
    this.platform.events.emit('chat.message', { companyId: ctx.companyId, message, chat });
    return message;
  }

  /** Clears the caller's unread count (the userId a client sends decides nothing). */
  async read(ctx: RequestContext, id: number): Promise<Chat> {
    const { db } = await this.#memberChat(ctx, id);
    const changed = await markChatRead(db, id, ctx.userId);
    const chat = await this.#chat(db, id);
    if (changed) this.platform.events.emit('chat.read', { companyId: ctx.companyId, chat });
    return chat;
  }
}
