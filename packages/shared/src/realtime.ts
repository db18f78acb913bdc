/**
 * The realtime channel's names (spec core 7). Company events are `company-{id}-{topic}`; the
 * payload always carries an `action`.
 */
export const COMPANY_TOPICS = [
  'whatsapp',
  'whatsappSession',
  'user',
  'chat',
  'appMessage',
  'ticket',
  'contact',
  'auth',
  'queue',
  'settings',
  /** Not named by the spec: the company's record (its opening hours) changed. */
  'company',
  'payment',
  'tag',
  'quickmessage',
  /** Scheduled messages: create, update, delete. */
  'schedule',
  /** AI prompts: create, update, delete (heard by the company's admins). */
  'prompt',
  /** Queue integrations: create, update, delete (heard by the company's admins). */
  'queueIntegration',
  /** Contact lists of campaigns: create, update, delete. */
  'ContactList',
  /** Their items: create, update, delete; reload after an import, and its progress. */
  'ContactListItem',
  /** Campaigns: create, update (status and progress), delete. */
  'campaign',
  /** File lists: create, update, delete (heard by the company's admins). */
  'file',
  /** Not in the original product: the simulator page's phones hear their conversations. */
  'simulator',
] as const;
/**
 * The internal chat's topics of one record, as the original client listens to them: a chat's own
 * channel (`company-{id}-chat-{chatId}`, its new messages and changes, heard by the open chat)
 * and a member's list (`company-{id}-chat-user-{userId}`, chats added or changed for that user).
 */
export type ChatTopic = `chat-${number}`;
export type ChatUserTopic = `chat-user-${number}`;
export const chatTopic = (chatId: number): ChatTopic => `chat-${chatId}`;
export const chatUserTopic = (userId: number): ChatUserTopic => `chat-user-${userId}`;

export type CompanyTopic = (typeof COMPANY_TOPICS)[number] | ChatTopic | ChatUserTopic;

export const companyEvent = (companyId: number, topic: CompanyTopic) =>
  `company-${companyId}-${topic}` as const;

export const ANNOUNCEMENT_EVENT = 'company-announcement';

/** Messages a client may emit. */
export const CLIENT_MESSAGES = {
  joinTickets: 'joinTickets',
  leaveTickets: 'leaveTickets',
  joinNotification: 'joinNotification',
  leaveNotification: 'leaveNotification',
  joinChatBox: 'joinChatBox',
  leaveChatBox: 'leaveChatBox',
  userStatus: 'userStatus',
  /** The simulator page listens to its phones' conversations (connections:read). */
  joinSimulator: 'joinSimulator',
  leaveSimulator: 'leaveSimulator',
} as const;

/** Answer to a join the server refused; sent to the asking socket only. */
export const JOIN_REFUSED_EVENT = 'joinRefused';
