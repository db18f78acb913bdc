import { EventEmitter } from 'node:events';
import type {
  Announcement,
  Campaign,
  Chat,
  ChatMessage,
  Company,
  Connection,
  ConnectionSession,
  Contact,
  ContactImportProgress,
  ContactList,
  ContactListItem,
  FileListRecord,
  Message,
  Prompt,
  Queue,
  QueueIntegration,
  QuickMessage,
  Schedule,
  Setting,
  SimulatorMessage,
  Tag,
  Ticket,
  User,
} from '@atendi/shared';

/** Who could see a ticket before a change: rooms that lose it are told to drop it. */
export type TicketAudienceBefore = Pick<Ticket, 'status' | 'queueId' | 'userId'>;

/** Facts the services announce after they commit; the realtime gateway turns them into events. */
/**
 * What a received message's listeners would read next about its ticket, answered by the inbound
 * store in the same statement, each by the rule of the module it concerns.
 */
export interface TicketFollowUp {
  /** Whether a bot turn could act on the ticket (the bots' BOT_TURN_MAY_ACT). */
  botTurnMayAct: boolean;
  /**
   * The webhook and n8n integrations its events go to, the connection's first (the
   * integrations' TICKET_EVENT_INTEGRATIONS).
   */
  eventIntegrations: number[];
  /** A contact's own message: the campaign settings and its sends waiting for a confirmation. */
  campaignReply?: CampaignReplyState | null;
}

/** What a contact's message may mean to the campaigns (the campaigns' campaignReply). */
export interface CampaignReplyState {
  settings: { key: string; value: string }[] | null;
  waiting: { id: number; campaignId: number }[];
}

export interface DomainEvents {
  'auth.signedIn': { companyId: number; userId: number; sessionId: string };
  'auth.revoked': { companyId: number; userId: number; sessionIds: string[] };
  'company.deleted': { companyId: number };
  /** The company's own record changed (its opening hours). */
  'company.saved': { companyId: number; company: Company };
  /** The super user set a company's due date (created or changed it): its invoice may be due. */
  'company.dueDateSet': { companyId: number; dueDate: string | null };
  'user.saved': { companyId: number; action: 'create' | 'update'; user: User };
  'user.deleted': { companyId: number; userId: number };
  'user.presence': { companyId: number; userId: number; online: boolean };
  'settings.updated': { companyId: number; setting: Setting };
  'queue.saved': { companyId: number; action: 'create' | 'update'; queue: Queue };
  'queue.deleted': { companyId: number; queueId: number };
  'tag.saved': { companyId: number; action: 'create' | 'update'; tag: Tag };
  'tag.deleted': { companyId: number; tagId: number };
  /**
   * Personal quick replies are heard by their owner only, a queue's by its agents too; shared
   * ('geral') ones by everyone.
   */
  'quickMessage.saved': {
    companyId: number;
    action: 'create' | 'update';
    record: QuickMessage;
    ownerId: number | null;
    /** It was shared before this change (a reply made personal is taken from the others). */
    wasShared?: boolean;
    /** The queue it was shared with before this change (its agents lose it when it moves). */
    wasQueueId?: number | null;
  };
  'quickMessage.deleted': {
    companyId: number;
    id: number;
    ownerId: number | null;
    geral: boolean;
    queueId: number | null;
  };
  /** Platform-wide: heard by every company. */
  'announcement.saved': { action: 'create' | 'update'; record: Announcement };
  'announcement.deleted': { id: number };
  'schedule.saved': { companyId: number; action: 'create' | 'update'; schedule: Schedule };
  'schedule.deleted': { companyId: number; scheduleId: number };
  'prompt.saved': { companyId: number; action: 'create' | 'update'; prompt: Prompt };
  'prompt.deleted': { companyId: number; promptId: number };
  /** An invoice was paid (the provider told): the company's new due date. */
  'invoice.paid': { companyId: number; invoiceId: number; dueDate: string | null };
  'queueIntegration.saved': {
    companyId: number;
    action: 'create' | 'update';
    queueIntegration: QueueIntegration;
  };
  'queueIntegration.deleted': { companyId: number; integrationId: number };
  'contactList.saved': { companyId: number; action: 'create' | 'update'; record: ContactList };
  'contactList.deleted': { companyId: number; id: number };
  'contactListItem.saved': {
    companyId: number;
    action: 'create' | 'update';
    record: ContactListItem;
  };
  'contactListItem.deleted': { companyId: number; id: number; contactListId: number };
  /** Many items of a list changed at once (an import, a validity check): the list asks again. */
  'contactListItem.reload': { companyId: number; contactListId: number };
  'contactListItem.importProgress': { companyId: number; progress: ContactImportProgress };
  'campaign.saved': { companyId: number; action: 'create' | 'update'; record: Campaign };
  'campaign.deleted': { companyId: number; id: number };
  'fileList.saved': { companyId: number; action: 'create' | 'update'; record: FileListRecord };
  'fileList.deleted': { companyId: number; id: number };
  /** Heard by the chat's members only; members an update removed are told it is gone. */
  'chat.saved': {
    companyId: number;
    action: 'create' | 'update';
    chat: Chat;
    removedUserIds?: number[];
  };
  'chat.message': { companyId: number; message: ChatMessage; chat: Chat };
  /** A member read the chat: its unread count was cleared. */
  'chat.read': { companyId: number; chat: Chat };
  'chat.deleted': { companyId: number; chatId: number; memberIds: number[] };
  'connection.saved': { companyId: number; action: 'create' | 'update'; connection: Connection };
  'connection.deleted': { companyId: number; connectionId: number };
  'connection.session': { companyId: number; session: ConnectionSession };
  'message.saved': {
    companyId: number;
    action: 'create' | 'update';
    message: Message;
    ticket: Ticket;
    /** Read with a received message: what its listeners would otherwise read of the ticket. */
    followUp?: TicketFollowUp;
  };
  /** The network took an outbound message (on the instance that runs its connection). */
  'message.sent': { companyId: number; messageId: number };
  'ticket.saved': {
    companyId: number;
    action: 'update' | 'updateUnread';
    ticket: Ticket;
    previous?: TicketAudienceBefore;
  };
  'ticket.deleted': { companyId: number; ticket: Ticket };
  'contact.saved': { companyId: number; action: 'create' | 'update'; contact: Contact };
  'contact.deleted': { companyId: number; contactId: number };
  /** Messages of one simulated phone changed; `messages` as the simulator page's API answers them. */
  'simulator.changed': {
    companyId: number;
    connectionId: number;
    phone: string;
    messages: SimulatorMessage[];
  };
}

export type DomainEventName = keyof DomainEvents;

export class EventBus {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.#emitter.setMaxListeners(50);
  }

  on<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => void): void {
    this.#emitter.on(name, listener);
  }

  off<K extends DomainEventName>(name: K, listener: (payload: DomainEvents[K]) => void): void {
    this.#emitter.off(name, listener);
  }

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.#emitter.emit(name, payload);
  }
}
