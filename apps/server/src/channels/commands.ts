import type { ReadReceipt } from './provider';

/** What a deferred command asks of the connection's session. */
export type DeferredCommand =
  | { action: 'read'; receipt: ReadReceipt }
  | { action: 'delete'; chatId: string; providerMessageId: string; fromMe: boolean };

/** The bus channel commands travel on, to every instance; the connection's owner acts. */
export const CHANNEL_COMMANDS = 'atendi_channel_commands';

export type ChannelCommand =
  | { connectionId: number; action: 'start' | 'restart' | 'stop' | 'logout' }
  /** Send a stored outbound message; the instance that owns the connection does it. */
  | { connectionId: number; action: 'send'; companyId: number; messageId: number }
  /** A command kept in the database (read receipts, a deletion); the owner carries it out. */
  | { connectionId: number; action: 'deferred'; companyId: number; commandId: number }
  /** Log in anew: the owner stops the session, forgets its stored login and starts again. */
  | { connectionId: number; action: 'renew' }
  /** Which numbers have an account on the network; the owner answers on `replyTo`. */
  | { connectionId: number; action: 'whatsappNumbers'; replyTo: string; numbers: string[] }
  /** Delete a sent message for everyone; the owner answers on `replyTo`. */
  | {
      connectionId: number;
      action: 'delete';
      replyTo: string;
      chatId: string;
      providerMessageId: string;
      fromMe: boolean;
    };
