import type { Announcement } from './announcements/announcements.schemas';
import type { Campaign } from './campaigns/campaigns.schemas';
import type { Chat, ChatMessageOfChat } from './chats/chats.schemas';
import type { Company } from './companies/companies.schemas';
import type { Connection, ConnectionSession } from './connections/connections.schemas';
import type {
  ContactImportProgress,
  ContactList,
  ContactListItem,
} from './contact-lists/contact-lists.schemas';
import type { Contact } from './contacts/contacts.schemas';
import type { FileListRecord } from './files/files.schemas';
import type { PaymentEvent } from './invoices/invoices.schemas';
import type { Message } from './messages/messages.schemas';
import type { Prompt } from './prompts/prompts.schemas';
import type { QueueIntegration } from './queue-integrations/queue-integrations.schemas';
import type { Queue } from './queues/queues.schemas';
import type { QuickMessage } from './quick-messages/quick-messages.schemas';
import type { ChatTopic, ChatUserTopic, CompanyTopic } from './realtime';
import type { Schedule } from './schedules/schedules.schemas';
import type { Setting } from './settings/settings.schemas';
import type { SimulatorMessage } from './simulator/simulator.contract';
import type { Tag } from './tags/tags.schemas';
import type { Ticket } from './tickets/tickets.schemas';
import type { User, UserListItem } from './users/users.schemas';

/** Every topic named, none added: a topic of the list without its payloads does not compile. */
type EveryTopic<T extends Record<CompanyTopic, { action: string }>> =
  Exclude<keyof T, CompanyTopic> extends never ? T : never;

/**
 * What `company-{id}-{topic}` carries, by topic and action, as the server sends it and the
 * spec's clients read it. The server's gateway emits only these shapes and the web's
 * subscriptions read them, so the two cannot drift apart.
 */
export type RealtimePayloads = EveryTopic<{
  /**
   * The external-API token is for admins' answers only: never emitted. A connection added comes
   * as `update` too: the spec names only update and delete here, and its clients' connection
   * list adds a record it does not hold only on update.
   */
  whatsapp:
    | { action: 'update'; whatsapp: Omit<Connection, 'token'> & { token?: never } }
    | { action: 'delete'; whatsappId: number };
  whatsappSession: { action: 'update'; session: ConnectionSession };
  /**
   * The whole user to those who read it whole (admins, the user itself), the list's fields to the
   * others (as GET /users/list answers them). `presence`: whether the user has the app open.
   */
  user:
    | { action: 'create' | 'update'; user: User | UserListItem }
    | { action: 'delete'; userId: number }
    | { action: 'presence'; userId: number; online: boolean };
  /**
   * Heard by the chat's members only. `create` and `update` carry the chat as `record` (what the
   * original client's list reads) and as `chat` (what its popover reads); `delete` names it.
   */
  chat:
    | { action: 'create' | 'update'; record: Chat; chat: Chat }
    | { action: 'new-message'; newMessage: ChatMessageOfChat; chat: Chat }
    | { action: 'delete'; id: number };
  /** One chat's channel, heard by its members: its new messages (the pane appends) and changes. */
  [chat: ChatTopic]:
    | { action: 'new-message'; newMessage: ChatMessageOfChat; chat: Chat }
    | { action: 'update'; chat: Chat };
  /** A member's own chat list: a chat the member was added to (`create`) or that changed. */
  [member: ChatUserTopic]: { action: 'create' | 'update'; record: Chat };
  appMessage: {
    action: 'create' | 'update';
    message: Message;
    ticket: Ticket;
    contact: Ticket['contact'];
  };
  ticket:
    | { action: 'update'; ticket: Ticket }
    | { action: 'updateUnread'; ticketId: number; ticket: Ticket }
    | { action: 'delete'; ticketId: number };
  contact:
    | { action: 'create' | 'update'; contact: Contact }
    | { action: 'delete'; contactId: number };
  auth: {
    action: 'update';
    user: { id: number };
    /** Session that caused it; the client that owns it keeps its session. */
    sessionId?: string;
  };
  /** The whole queue, as a user reads it: its token is for admins and is never emitted. */
  queue:
    | { action: 'create' | 'update'; queue: Omit<Queue, 'token'> & { token?: never } }
    | { action: 'delete'; queueId: number };
  settings: { action: 'update'; setting: Setting };
  company: { action: 'update'; company: Company };
  /** An invoice was paid: CONCLUIDA with the company's new due date. */
  payment: PaymentEvent;
  tag: { action: 'create' | 'update'; tag: Tag } | { action: 'delete'; tagId: number };
  quickmessage:
    | { action: 'create' | 'update'; record: QuickMessage }
    | { action: 'delete'; id: number };
  schedule:
    | { action: 'create' | 'update'; schedule: Schedule }
    | { action: 'delete'; scheduleId: number };
  /** Keys are answered as masked hints only, as in the prompts' HTTP answers. */
  prompt: { action: 'create' | 'update'; prompt: Prompt } | { action: 'delete'; promptId: number };
  /** Secrets are answered as masked hints only, as in the HTTP answers. */
  queueIntegration:
    | { action: 'create' | 'update'; queueIntegration: QueueIntegration }
    | { action: 'delete'; integrationId: number };
  ContactList:
    | { action: 'create' | 'update'; record: ContactList }
    | { action: 'delete'; id: number };
  /**
   * `reload` when an import added items (the page asks again); `progress` while an import reads
   * its file (not in the original product: its clients ignore it).
   */
  ContactListItem:
    | { action: 'create' | 'update'; record: ContactListItem }
    | { action: 'delete'; id: number; contactListId: number }
    | { action: 'reload'; contactListId: number }
    | ({ action: 'progress' } & ContactImportProgress);
  campaign: { action: 'create' | 'update'; record: Campaign } | { action: 'delete'; id: number };
  /** `files` is the list as its HTTP answers carry it, as the spec's client reads it. */
  file:
    | { action: 'create' | 'update'; files: FileListRecord }
    | { action: 'delete'; fileId: number };
  /** Messages of one simulated phone changed: new ones, ticks, edits, deletions. */
  simulator: {
    action: 'update';
    connectionId: number;
    phone: string;
    messages: SimulatorMessage[];
  };
}>;

/**
 * What `company-announcement` carries: sent to every socket of every company (announcements are
 * the platform's, not one company's).
 */
export type AnnouncementPayload =
  | { action: 'create' | 'update'; record: Announcement }
  | { action: 'delete'; id: number };

export type RealtimePayload<T extends CompanyTopic> = RealtimePayloads[T];
