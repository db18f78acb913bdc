import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ACK } from '@atendi/shared';
import type { Storage } from '../../platform/storage';
import { locationBody, storable } from '../normalise';
import type {
  AddressBookEntry,
  ChannelEvents,
  ChannelProvider,
  ChannelSession,
  ConnectionRef,
  InboundMessage,
  MessageKind,
  OutboundMessage,
  ReadReceipt,
  SentMessage,
} from '../provider';
import { simulatorAvatar } from './simulator.avatar';
import {
  SIMULATOR_CHANNEL,
  type SimulatorNetwork,
  type SimulatorRow,
  type SimulatorSignal,
  simulatorNumber,
} from './simulator.network';

const KINDS = new Set<MessageKind>([
  'text',
  'image',
  'audio',
  'video',
  'document',
  'location',
  'contact',
  'call_log',
]);

/** The built-in fake WhatsApp network: what the demo and the end-to-end tests drive. */
export class SimulatorProvider implements ChannelProvider {
  readonly name = 'simulator' as const;
  readonly #sessions = new Map<number, SimulatorSession>();
  #listening?: Promise<void>;

  constructor(
    readonly network: SimulatorNetwork,
    private readonly storage: Storage,
    private readonly options: { sendLatencyMs?: number } = {},
  ) {}

  /** The simulated phones that wrote to the connection. */
  async addressBook(connection: ConnectionRef): Promise<AddressBookEntry[]> {
    const rows = await this.network.writers(connection.companyId, connection.id);
    return rows.map((row) => ({ number: row.phone, name: row.name ?? row.phone }));
  }

  /** A new login: the phone is unpaired, so the next start shows a QR to scan. */
  async forget(connection: ConnectionRef): Promise<void> {
    await this.network.setPaired(connection.companyId, connection.id, false);
  }

  open(connection: ConnectionRef, events: ChannelEvents): ChannelSession {
    this.#listening ??= this.network.notifier.subscribe(SIMULATOR_CHANNEL, (payload) => {
      const signal = JSON.parse(payload) as SimulatorSignal;
      void this.#sessions.get(signal.connectionId)?.onSignal(signal);
    });
    const session: SimulatorSession = new SimulatorSession(
      connection,
      events,
      this.network,
      this.storage,
      this.options.sendLatencyMs ?? 0,
      () => {
        // A restart may already have opened the next session for this connection.
        if (this.#sessions.get(connection.id) === session) this.#sessions.delete(connection.id);
      },
    );
    this.#sessions.set(connection.id, session);
    return session;
  }
}

/**
 * The stored text of a message, as the other networks give it: a location's map link (and its
 * place's name), a contact card's vCard, else what the phone typed.
 */
function bodyOf(kind: MessageKind, row: SimulatorRow): string {
  if (kind === 'location' && row.location) {
    const { latitude, longitude, name } = row.location;
    return locationBody(latitude, longitude, name);
  }
  if (kind === 'contact' && row.vcard) return storable(row.vcard);
  return storable(row.body);
}

export function toInbound(row: SimulatorRow, storage: Storage): InboundMessage {
  const kind = KINDS.has(row.kind as MessageKind) ? (row.kind as MessageKind) : 'text';
  const mediaPath = row.mediaPath;
  return {
    providerMessageId: row.providerMessageId,
    chatId: row.phone,
    isGroup: false,
    fromMe: false,
    contact: { number: row.phone, name: row.phoneName || undefined },
    timestamp: row.createdAt,
    kind,
    body: bodyOf(kind, row),
    ...(mediaPath
      ? {
          media: {
            open: async () => createReadStream(storage.pathOf(mediaPath)),
            mimeType: row.mimeType ?? 'application/octet-stream',
            fileName: row.fileName ?? undefined,
          },
        }
      : {}),
    ...(row.location ? { location: row.location } : {}),
    ...(row.vcard ? { vcard: row.vcard } : {}),
    ...(row.quotedProviderMessageId
      ? { quotedProviderMessageId: row.quotedProviderMessageId }
      : {}),
  };
}

class SimulatorSession implements ChannelSession {
  #connected = false;
  #stopped = false;
  #delivering?: Promise<void>;
  #again = false;

  constructor(
    private readonly ref: ConnectionRef,
    private readonly events: ChannelEvents,
    private readonly network: SimulatorNetwork,
    private readonly storage: Storage,
    private readonly sendLatencyMs: number,
    private readonly onClosed: () => void,
  ) {}

  async start(): Promise<void> {
    await this.events.status({ status: 'OPENING' });
    if (await this.network.isPaired(this.ref.companyId, this.ref.id)) {
      await this.#connect();
    } else {
      await this.events.status({
        status: 'qrcode',
        qrcode: `SIMULATOR:${this.ref.id}:${randomBytes(12).toString('base64url')}`,
      });
    }
  }

  async onSignal(signal: SimulatorSignal): Promise<void> {
    if (this.#stopped) return;
    if (signal.type === 'paired' && !this.#connected) await this.#connect();
    else if (signal.type === 'unpaired' && this.#connected) {
      this.#connected = false;
      await this.events.status({ status: 'DISCONNECTED', qrcode: '' });
    } else if (signal.type === 'inbound' && this.#connected) await this.deliver();
    else if (signal.type === 'ack') {
      for (const providerMessageId of signal.ids) {
        await this.events.ack({ providerMessageId, ack: signal.ack });
      }
    }
  }

  async #connect() {
    this.#connected = true;
    await this.events.status({
      status: 'CONNECTED',
      qrcode: '',
      number: simulatorNumber(this.ref.id),
      retries: 0,
    });
    await this.deliver();
  }

  /**
   * Hands every undelivered phone message to the server; each is marked delivered only after
   * the server committed it, so a crash in between means it comes again (and is stored once).
   */
  deliver(): Promise<void> {
    if (this.#delivering) {
      this.#again = true;
      return this.#delivering;
    }
    this.#delivering = (async () => {
      do {
        this.#again = false;
        for (;;) {
          if (!this.#connected || this.#stopped) return;
          const rows = await this.network.undelivered(this.ref.companyId, this.ref.id);
          if (rows.length === 0) break;
          await Promise.all(
            rows.map(async (row) => {
              await this.#hand(row);
              await this.network.markDelivered(this.ref.companyId, row.id);
            }),
          );
        }
      } while (this.#again);
    })().finally(() => {
      this.#delivering = undefined;
    });
    return this.#delivering;
  }

  /** A phone's message, or its edit or deletion of an earlier one, in the chat's order. */
  #hand(row: SimulatorRow): Promise<void> {
    const providerMessageId = row.quotedProviderMessageId;
    if (row.kind === 'edit' && providerMessageId) {
      return this.events.change({
        type: 'edit',
        chatId: row.phone,
        providerMessageId,
        body: row.body,
      });
    }
    if (row.kind === 'revoke' && providerMessageId) {
      return this.events.change({ type: 'delete', chatId: row.phone, providerMessageId });
    }
    return this.events.inbound(toInbound(row, this.storage));
  }

  async send(message: OutboundMessage): Promise<SentMessage> {
    if (!this.#connected) throw new Error('simulator connection is not connected');
    const providerMessageId =
      message.providerMessageId ?? `SIM${randomUUID().replace(/-/g, '').toUpperCase()}`;
    const stored = message.media
      ? await this.storage.save(
          this.ref.companyId,
          message.media.mimeType,
          createReadStream(this.storage.pathOf(message.media.path)),
        )
      : undefined;
    // Sending the same id again (a retry) is recognised by the network, not delivered twice.
    await this.network.record(this.ref.companyId, {
      connectionId: this.ref.id,
      phone: message.chatId,
      direction: 'outbound',
      providerMessageId,
      kind: message.media ? message.media.kind : 'text',
      body: message.body,
      mediaPath: stored?.key ?? null,
      mimeType: message.media?.mimeType ?? null,
      fileName: message.media?.fileName ?? null,
      quotedProviderMessageId: message.quoted?.providerMessageId ?? null,
      ack: ACK.sent,
    });
    // The network has it; its answer is on its way.
    if (this.sendLatencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.sendLatencyMs));
    return { providerMessageId, ack: ACK.sent };
  }

  async deleteMessage(message: { providerMessageId: string }): Promise<void> {
    await this.network.markDeleted(this.ref.companyId, this.ref.id, message.providerMessageId);
  }

  async markRead(receipt: ReadReceipt): Promise<void> {
    if (!this.#connected || receipt.isGroup) return;
    await this.network.readByCompany(
      this.ref.companyId,
      this.ref.id,
      receipt.chatId,
      receipt.messages.map((message) => message.providerMessageId),
    );
  }

  /** The simulated network's rule: see simulatorHasAccount. */
  async whatsappNumbers(numbers: string[]): Promise<Map<string, boolean>> {
    return new Map(numbers.map((number) => [number, simulatorHasAccount(number)]));
  }

  async profilePicture(chat: { chatId: string; isGroup: boolean }): Promise<Buffer | undefined> {
    return chat.isGroup ? undefined : simulatorAvatar(chat.chatId);
  }

  async stop(options: { logout?: boolean } = {}): Promise<void> {
    this.#stopped = true;
    this.onClosed();
    await this.#delivering?.catch(() => {});
    if (options.logout) {
      await this.network.setPaired(this.ref.companyId, this.ref.id, false).catch(() => {});
      await this.events.status({ status: 'DISCONNECTED', qrcode: '' });
    }
  }
}

/**
 * Whether a number has an account on the simulated network: every number of 10 to 13 digits,
 * except those ending in 0000 (the simulator's number that is not on WhatsApp).
 */
export const simulatorHasAccount = (number: string) =>
  /^\d{10,13}$/.test(number) && !number.endsWith('0000');
