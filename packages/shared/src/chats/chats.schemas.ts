import { z } from 'zod';
import { listQuerySchema } from '../pagination';
import { MSG, positiveId } from '../validation';

/** The spec's chat dialog messages (administration 5), in the original product's words. */
export const CHAT_MSG = {
  titleRequired: 'Por favor, preencha o título da conversa.',
  usersRequired: 'Por favor, selecione pelo menos um usuário.',
  messageRequired: 'Obrigatório',
} as const;

export const CHAT_TITLE_MAX = 100;
export const CHAT_MESSAGE_MAX = 4096;
/** Members a chat may have besides its owner. */
export const CHAT_USERS_MAX = 200;
/** Chats and messages per page. */
export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;

/**
 * A member as the clients send it: the original client sends the user records it picked
 * (`{ id, name }`), others a bare id.
 */
const memberInput = z.union([positiveId, z.object({ id: positiveId }).transform((u) => u.id)]);

const chatFields = {
  title: z
    .string({ error: CHAT_MSG.titleRequired })
    .trim()
    .min(1, CHAT_MSG.titleRequired)
    .max(CHAT_TITLE_MAX, MSG.tooLong),
  users: z
    .array(memberInput, { error: CHAT_MSG.usersRequired })
    .min(1, CHAT_MSG.usersRequired)
    .max(CHAT_USERS_MAX, MSG.tooLong),
};

/** POST /chats: the caller owns the chat and is always one of its members. */
export const chatCreateSchema = z.object(chatFields);
export type ChatCreate = z.input<typeof chatCreateSchema>;

/** PUT /chats/:id: the owner renames it or changes its members. */
export const chatUpdateSchema = z.object({
  title: chatFields.title.optional(),
  users: chatFields.users.optional(),
});
export type ChatUpdate = z.input<typeof chatUpdateSchema>;

export const chatMemberSchema = z.object({
  userId: z.number(),
  /** Messages of others this member has not read yet. */
  unreads: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

export const chatSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  /** Null once the owner's user was deleted. */
  ownerId: z.number().nullable(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(chatMemberSchema),
});
export type Chat = z.infer<typeof chatSchema>;

export const chatMessageSchema = z.object({
  id: z.number(),
  chatId: z.number(),
  /** Null once the sender's user was deleted. */
  senderId: z.number().nullable(),
  sender: z.object({ id: z.number(), name: z.string() }).nullable(),
  message: z.string(),
  /**
   * A file sent with the message, as the original names it: a signed address to fetch it and
   * the name it was sent under (only messages brought from Whaticket have one).
   */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A message as the realtime events carry it: with its chat and members (`newMessage.chat.users`). */
export type ChatMessageOfChat = ChatMessage & { chat: Chat };

export const chatListQuerySchema = listQuerySchema.extend({
  companyId: z.coerce.number().int().optional(),
});
export type ChatListQuery = z.infer<typeof chatListQuerySchema>;

export const chatsPageSchema = z.object({
  records: z.array(chatSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ChatsPage = z.infer<typeof chatsPageSchema>;

/** GET /chats/:id names a chat by its id or by the uuid of its address (/chats/{uuid}). */
export const chatRefParamsSchema = z.strictObject({
  id: z.union([z.uuid(), positiveId]),
});

export const chatMessagesQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** Newest page first; each page's records oldest first, as the pane shows them. */
export const chatMessagesPageSchema = z.object({
  records: z.array(chatMessageSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type ChatMessagesPage = z.infer<typeof chatMessagesPageSchema>;

/** POST /chats/:id/messages: a blank message is not sent. */
export const chatMessageCreateSchema = z.object({
  message: z
    .string({ error: CHAT_MSG.messageRequired })
    .trim()
    .min(1, CHAT_MSG.messageRequired)
    .max(CHAT_MESSAGE_MAX, MSG.tooLong),
});
export type ChatMessageCreate = z.infer<typeof chatMessageCreateSchema>;

/** POST /chats/:id/read: the original client names the user; the session's user decides. */
export const chatReadSchema = z.object({ userId: z.unknown().optional() }).nullish();
