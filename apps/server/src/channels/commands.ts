import type { ReadReceipt } from './provider';

/** The bus channel commands travel on, to every instance; the connection's owner acts. */
export const CHANNEL_COMMANDS = 'atendi_channel_commands';

export type ChannelCommand =
  | { connectionId: number; action: 'start' | 'restart' | 'stop' | 'logout' }
  /** Send a stored outbound message; the instance that owns the connection does it. */
  | { connectionId: number; action: 'send'; companyId: number; messageId: number }
  /** Read receipts for the contact; the owner's session sends them. */
  | { connectionId: number; action: 'read'; receipt: ReadReceipt }
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
