import type { Readable } from 'node:stream';

import type { ConnectionStatus, ProviderName } from '@atendi/shared';

export type MessageKind =
  | 'text'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'location'
  | 'contact'
  | 'call_log'
  | 'reaction';

export interface InboundMedia {
  /** Read once; the pipeline streams it into storage under a generated name. */
  open(): Promise<Readable>;
  mimeType: string;
  /** The sender's file name: metadata only, never a path. */
  fileName?: string;
}

/** One message as every provider reports it, after leaving the provider's folder. */
export interface InboundMessage {
  providerMessageId: string;
  /** The conversation: a person's number (digits) or a group's id. */
  chatId: string;
  isGroup: boolean;
  groupName?: string;
  fromMe: boolean;
  /** The person on the other side (the sender in a group). */
  contact: { number: string; name?: string; lid?: string };
  timestamp: Date;
  kind: MessageKind;
  body: string;
  media?: InboundMedia;
  location?: { latitude: number; longitude: number; name?: string };
  vcard?: string;
  quotedProviderMessageId?: string;
}

export type InboundChange =
  | { type: 'edit'; chatId: string; providerMessageId: string; body: string }
  | { type: 'delete'; chatId: string; providerMessageId: string };

export interface AckUpdate {
  providerMessageId: string;
  /** The spec's ticks (ACK): 2 sent, 3 delivered, 4 read, 5 played. */
  ack: number;
}

export interface StatusUpdate {
  status: ConnectionStatus;
  qrcode?: string;
  /** The paired phone's number, once known. */
  number?: string;
  retries?: number;
}

/** Everything a provider tells the server. Each promise resolves once the fact is committed. */
export interface ChannelEvents {
  status(update: StatusUpdate): Promise<void>;
  inbound(message: InboundMessage): Promise<void>;
  change(change: InboundChange): Promise<void>;
  ack(update: AckUpdate): Promise<void>;
}

export interface OutboundMessage {
  /**
   * The id to send under. Providers that can choose it (simulator, WhatsApp Web) use it, so a
   * retry of the same message is recognised by the network instead of delivered twice.
   */
  providerMessageId?: string;
  chatId: string;
  isGroup: boolean;
  body: string;
  media?: {
    path: string;
    mimeType: string;
    fileName: string;
    kind: 'image' | 'audio' | 'video' | 'document';
  };
  quoted?: { providerMessageId: string; fromMe: boolean; body: string };
  /** A copy of another message: shown as forwarded where the network has the mark (WhatsApp Web). */
  forwarded?: boolean;
}

export interface SentMessage {
  providerMessageId: string;
  ack: number;
}

/** The contact's messages an agent has now seen, to tell the contact's phone (blue ticks). */
export interface ReadReceipt {
  chatId: string;
  isGroup: boolean;
  /** Oldest first; the last one is the newest message read. */
  messages: { providerMessageId: string; participant?: string }[];
}

/** A live connection to a messaging network, owned by one server instance at a time. */
export interface ChannelSession {
  start(): Promise<void>;
  /** Stops the session; `logout` also unpairs the phone. */
  stop(options?: { logout?: boolean }): Promise<void>;
  send(message: OutboundMessage): Promise<SentMessage>;
  deleteMessage(message: {
    chatId: string;
    providerMessageId: string;
    fromMe: boolean;
  }): Promise<void>;
  /** Tells the contact its messages were read; networks without read receipts leave it out. */
  markRead?(receipt: ReadReceipt): Promise<void>;
  /**
   * The chat's profile picture as image bytes, or undefined when it has none the connection
   * may see; networks without profile pictures leave it out.
   */
  profilePicture?(chat: { chatId: string; isGroup: boolean }): Promise<Buffer | undefined>;
  /**
   * Which of these numbers (digits) have an account on the network, by number; a number left out
   * could not be told. Networks that cannot know (the Cloud API answers only when a message is
   * sent) leave it out.
   */
  whatsappNumbers?(numbers: string[]): Promise<Map<string, boolean>>;
}

export interface ConnectionRef {
  id: number;
  companyId: number;
  name: string;
}

/** A person of the connection's address book: digits, and the best name known. */
export interface AddressBookEntry {
  number: string;
  name: string;
}

export interface ChannelProvider {
  readonly name: ProviderName;
  open(connection: ConnectionRef, events: ChannelEvents): ChannelSession;
  /**
   * Forgets the stored login (a new QR on the next start), called by the owner while no session
   * of the connection runs; networks with nothing to forget leave it out.
   */
  forget?(connection: ConnectionRef): Promise<void>;
  /**
   * The people the connection's phone knows, from what the provider kept (any instance can
   * read it); networks without an address book leave it out.
   */
  addressBook?(connection: ConnectionRef): Promise<AddressBookEntry[]>;
}
