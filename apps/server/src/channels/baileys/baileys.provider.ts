import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ACK, DEFAULT_SETTINGS } from '@atendi/shared';
import makeWASocket, {
  type AnyMessageContent,
  type AuthenticationState,
  type BaileysEventEmitter,
  type BaileysEventMap,
  Browsers,
  type Contact,
  DisconnectReason,
  downloadContentFromMessage,
  isPnUser,
  jidNormalizedUser,
  type MessageUserReceiptUpdate,
  type MiscMessageGenerationOptions,
  makeCacheableSignalKeyStore,
  proto,
  type SocketConfig,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { connections, contacts, messages, settings } from '../../db/schema';
import { type DbHandle, type TenantDb, tenantDb } from '../../db/tenant';
import { type RequestContext, systemContext } from '../../platform/auth/context';
import { AppError } from '../../platform/errors';
import type { OutboundClient } from '../../platform/outbound';
import type { Storage } from '../../platform/storage';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../backoff';
import { storable } from '../normalise';
import type {
  AddressBookEntry,
  ChannelEvents,
  ChannelProvider,
  ChannelSession,
  ConnectionRef,
  InboundMessage,
  OutboundMessage,
  ReadReceipt,
  SentMessage,
  StatusUpdate,
} from '../provider';
import { BaileysAuthStore, isPaired } from './baileys.auth';
import {
  ackOf,
  type Content,
  editedText,
  identities,
  isGroupChat,
  isIgnoredChat,
  readContent,
  timestampOf,
  userOf,
} from './baileys.normalise';
import {
  BaileysSpool,
  DurableInbox,
  type DurableInboxOptions,
  type SpooledEntry,
} from './baileys.spool';

/** The part of a Baileys socket this provider uses; the fake socket implements the same. */
export interface BaileysSocket {
  readonly ev: Pick<BaileysEventEmitter, 'on' | 'off'>;
  readonly user?: { id: string; name?: string; lid?: string } | undefined;
  end(error: Error | undefined): Promise<void> | void;
  logout(message?: string): Promise<void>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  profilePictureUrl(jid: string, type?: 'preview' | 'image'): Promise<string | undefined>;
  onWhatsApp(...phoneNumber: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  groupMetadata(jid: string): Promise<{ subject: string }>;
  readonly signalRepository: {
    lidMapping: { getPNForLID(lid: string): Promise<string | null> };
  };
}

export interface BaileysSocketOptions {
  connection: ConnectionRef;
  auth: AuthenticationState;
  logger: SocketConfig['logger'];
  getMessage: SocketConfig['getMessage'];
}

export type BaileysSocketFactory = (options: BaileysSocketOptions) => BaileysSocket;

/** The real WhatsApp Web socket. */
export const makeBaileysSocket: BaileysSocketFactory = ({ auth, logger, getMessage }) =>
  makeWASocket({
    auth: { creds: auth.creds, keys: makeCacheableSignalKeyStore(auth.keys, logger) },
    logger,
    getMessage,
    browser: Browsers.ubuntu('Atendi'),
    markOnlineOnConnect: false,
    // The inbox starts from the pairing on; old chats are not imported.
    syncFullHistory: false,
    shouldSyncHistoryMessage: () => false,
  });

export interface BaileysProviderOptions {
  createSocket?: BaileysSocketFactory;
  retry?: Partial<RetryPolicy>;
  /** Limits and retry pauses of the inbound spool (tests shorten them). */
  inbox?: DurableInboxOptions;
}

interface SessionDeps {
  db: DbHandle;
  storage: Storage;
  log: FastifyBaseLogger;
  outbound: Pick<OutboundClient, 'request'>;
  createSocket: BaileysSocketFactory;
  retry: RetryPolicy;
  inbox?: DurableInboxOptions;
}

/** What the caller hears when calls are off for the company (the original product's text). */
export const CALLS_DISABLED_REPLY =
  '*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para esse WhatsApp, favor enviar uma mensagem de texto. Obrigado';

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40 };

/** WhatsApp Web (multi-device) through Baileys: the spec's 'beta' connections. */
export class BaileysProvider implements ChannelProvider {
  readonly name = 'beta' as const;
  readonly #deps: SessionDeps;

  constructor(
    deps: {
      db: DbHandle;
      storage: Storage;
      log: FastifyBaseLogger;
      outbound: Pick<OutboundClient, 'request'>;
    },
    options: BaileysProviderOptions = {},
  ) {
    this.#deps = {
      ...deps,
      createSocket: options.createSocket ?? makeBaileysSocket,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      ...(options.inbox ? { inbox: options.inbox } : {}),
    };
  }

  open(connection: ConnectionRef, events: ChannelEvents): ChannelSession {
    return new BaileysSession(connection, events, this.#deps);
  }

  /** A new login: every stored key of the last one goes, so the next start shows a new QR. */
  async forget(connection: ConnectionRef): Promise<void> {
    const db = tenantDb(systemContext(this.#deps.db, connection.companyId));
    await new BaileysAuthStore(db, connection.id).wipe();
  }

  /** The phone's contacts as WhatsApp synced them: people with a number, not groups. */
  async addressBook(connection: ConnectionRef): Promise<AddressBookEntry[]> {
    const db = tenantDb(systemContext(this.#deps.db, connection.companyId));
    const stored = await new BaileysAuthStore(db, connection.id).addressBook();
    const people: AddressBookEntry[] = [];
    for (const entry of stored) {
      const phoneJid = [entry.id, entry.phoneNumber].find(
        (jid) => jid && isPnUser(jid) && !isIgnoredChat(jid),
      );
      if (!phoneJid) continue;
      const number = userOf(phoneJid);
      people.push({ number, name: entry.name ?? entry.notify ?? entry.verifiedName ?? number });
    }
    return people;
  }

  /** Keeps the number to pair by code; the next start of the session asks WhatsApp for one. */
  async setPairingNumber(ctx: RequestContext, connectionId: number, phoneNumber: string) {
    const db = tenantDb(ctx);
    const [row] = await db
      .select({ id: connections.id })
      .from(connections, and(eq(connections.id, connectionId), eq(connections.provider, 'beta')));
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND', 404);
    await new BaileysAuthStore(db, connectionId).setPairingNumber(phoneNumber);
  }
}

type Delivery = () => Promise<void>;
type Handlers = { [K in keyof BaileysEventMap]?: (arg: BaileysEventMap[K]) => void };

const statusCodeOf = (error: unknown): number | undefined =>
  (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;

/** A chat's jid: ours are the number (people), or the jid itself (groups, LID-only people). */
const jidOf = (chatId: string) => (chatId.includes('@') ? chatId : `${chatId}@s.whatsapp.net`);

/** 'ABCD1234' as WhatsApp shows it on the phone: 'ABCD-1234'. */
const formatPairingCode = (code: string) =>
  code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;

/** The chat a spooled event belongs to, by its jid: one chat's events are handled in order. */
function chatOfEntry(entry: SpooledEntry): string {
  const item = entry.item as { key?: WAMessageKey; from?: string; chatId?: string };
  const jid = entry.kind === 'call' ? (item.from ?? item.chatId) : item.key?.remoteJid;
  if (!jid) return '';
  try {
    return jidNormalizedUser(jid);
  } catch {
    return jid;
  }
}

/** An edit or a delete for everyone (acks travel apart: they only move ticks forward). */
const isChange = ({ update }: WAMessageUpdate) =>
  Boolean(update.message?.editedMessage) ||
  update.messageStubType === proto.WebMessageInfo.StubType.REVOKE;

/** The end of a call nobody answered (offers and rings come first, for the same call). */
const isMissedCall = (call: WACallEvent) =>
  !call.isGroup && (call.status === 'terminate' || call.status === 'timeout');
/** WhatsApp's mark of a forwarded message (once forwarded: no "forwarded many times"). */
const FORWARDED = { isForwarded: true, forwardingScore: 1 };

const PICTURE_TIMEOUT_MS = 20_000;
/** WhatsApp's full-size profile pictures are 640 px JPEGs, well under this. */
const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
const pad = (value: number) => String(value).padStart(2, '0');

class BaileysSession implements ChannelSession {
  readonly #db: TenantDb;
  readonly #store: BaileysAuthStore;
  readonly #log: FastifyBaseLogger;
  #state?: AuthenticationState;
  #socket?: BaileysSocket;
  /** The last socket made, open or not: lookups of spooled events go through it. */
  #lastSocket?: BaileysSocket;
  #detach?: () => void;
  #timer?: NodeJS.Timeout;
  #stopped = false;
  #open = false;
  #attempt = 0;
  /** This socket showed a QR (or a code): closing unscanned means it expired. */
  #sawQr = false;
  #pairingNumber?: string;
  #pairing = false;
  /** Connection updates, one after another: statuses are reported in the order they happened. */
  #lifecycle: Promise<void> = Promise.resolve();
  /** What WhatsApp Web delivered: spooled first, then stored, none dropped. */
  readonly #inbox: DurableInbox;
  readonly #startedAt = new Date();
  /** The socket was closed because events could not be spooled; it reopens once they are. */
  #paused = false;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #groupNames = new Map<string, string>();
  readonly #calls = new Set<string>();
  readonly #replied = new Set<string>();

  constructor(
    private readonly ref: ConnectionRef,
    private readonly events: ChannelEvents,
    private readonly deps: SessionDeps,
  ) {
    this.#db = tenantDb(systemContext(deps.db, ref.companyId));
    this.#store = new BaileysAuthStore(this.#db, ref.id);
    this.#log = deps.log.child({ connectionId: ref.id, provider: 'beta' });
    this.#inbox = new DurableInbox(
      new BaileysSpool(this.#db, ref.id),
      {
        chatOf: chatOfEntry,
        process: (entry) => this.#process(entry),
        pause: () => this.#pause(),
        resume: () => this.#resume(),
      },
      this.#log,
      deps.inbox,
    );
  }

  async start(): Promise<void> {
    await this.events.status({ status: 'OPENING', qrcode: '' });
    this.#pairingNumber = await this.#store.takePairingNumber();
    this.#state = await this.#store.load();
    this.#connect();
    // What an earlier owner spooled and did not finish (a crash, a lost lease) comes first.
    void this.#inbox.drain();
  }

  #connect() {
    this.#timer = undefined;
    if (this.#stopped || !this.#state) return;
    this.#sawQr = false;
    // Baileys logs a lot at info; its warnings are enough beside ours.
    const level = (LEVELS[this.#log.level] ?? 100) >= LEVELS.warn! ? this.#log.level : 'warn';
    try {
      const socket = this.deps.createSocket({
        connection: this.ref,
        auth: this.#state,
        logger: this.#log.child({ module: 'baileys' }, { level }) as SocketConfig['logger'],
        getMessage: (key) => this.#storedMessage(key),
      });
      this.#socket = socket;
      this.#lastSocket = socket;
      this.#detach = this.#listen(socket);
    } catch (error) {
      this.#log.error({ err: error }, 'WhatsApp Web socket could not be created');
      this.#step(() => this.#onClose(undefined));
    }
  }

  /** Registers this session's listeners on a socket, once; the returned function removes them. */
  #listen(socket: BaileysSocket): () => void {
    const handlers: Handlers = {
      'connection.update': (update) => {
        // Off this socket at once: a closed socket must not reach the session any more.
        if (update.connection === 'close') this.#release(socket);
        this.#step(() => this.#onConnection(socket, update));
      },
      'creds.update': () => {
        // Baileys merged the update into the creds before this listener runs.
        if (this.#state) this.#track(this.#store.saveCreds(this.#state.creds));
      },
      'messages.upsert': ({ messages: list, type }) => {
        // 'append' is history and our own sends echoed back; 'notify' is what just arrived.
        if (type !== 'notify') return;
        const kept = list.filter(
          (message) => message.key.id && message.message && !isIgnoredChat(message.key.remoteJid),
        );
        this.#inbox.hear(kept.map((item) => ({ kind: 'message', item })));
      },
      'messages.update': (updates) => {
        this.#acks(updates);
        this.#inbox.hear(updates.filter(isChange).map((item) => ({ kind: 'update', item })));
      },
      'message-receipt.update': (receipts) => this.#receipts(receipts),
      call: (calls) => {
        const missed = calls.filter((call) => isMissedCall(call) && !this.#calls.has(call.id));
        if (this.#calls.size > 1_000) this.#calls.clear();
        for (const call of missed) this.#calls.add(call.id);
        this.#inbox.hear(missed.map((item) => ({ kind: 'call', item })));
      },
      // The phone's address book, kept for importing contacts.
      'contacts.upsert': (list) => this.#keepAddressBook(list),
      'contacts.update': (list) => this.#keepAddressBook(list),
      'messaging-history.set': ({ contacts: list }) => this.#keepAddressBook(list ?? []),
    };
    const names = Object.keys(handlers) as (keyof BaileysEventMap)[];
    for (const name of names) socket.ev.on(name, handlers[name] as never);
    return () => {
      for (const name of names) socket.ev.off(name, handlers[name] as never);
    };
  }

  /** People only: groups, broadcasts and channels are no one to import. */
  #keepAddressBook(list: Partial<Contact>[]) {
    const people = list.filter(
      (entry) => entry.id && !isGroupChat(entry.id) && !isIgnoredChat(entry.id),
    );
    if (people.length > 0) this.#track(this.#store.saveAddressBook(people));
  }

  #release(socket: BaileysSocket | undefined) {
    if (!socket || socket !== this.#socket) return;
    this.#detach?.();
    this.#detach = undefined;
    this.#socket = undefined;
    this.#open = false;
  }

  #step(work: () => Promise<void>) {
    this.#lifecycle = this.#lifecycle
      .then(work)
      .catch((error) => this.#log.error({ err: error }, 'WhatsApp Web status change failed'));
  }

  #status(update: StatusUpdate): Promise<void> {
    return this.events.status(update);
  }

  async #onConnection(socket: BaileysSocket, update: BaileysEventMap['connection.update']) {
    if (this.#stopped) return;
    if (update.qr && socket === this.#socket) {
      this.#sawQr = true;
      this.#attempt = 0;
      if (this.#pairingNumber) {
        const phoneNumber = this.#pairingNumber;
        this.#pairingNumber = undefined;
        this.#pairing = true;
        const code = await socket.requestPairingCode(phoneNumber).catch((error) => {
          // WhatsApp refused the code (e.g. a number without an account): the QR still works.
          this.#log.warn({ err: error }, 'pairing code refused');
          this.#pairing = false;
          return undefined;
        });
        if (code) await this.#status({ status: 'PAIRING', qrcode: formatPairingCode(code) });
      }
      if (!this.#pairing) {
        // Each new QR replaces the last one on the pairing dialog.
        await this.#status({ status: 'qrcode', qrcode: update.qr });
      }
    }
    if (update.connection === 'open' && socket === this.#socket) {
      this.#open = true;
      this.#attempt = 0;
      this.#pairing = false;
      await this.#status({
        status: 'CONNECTED',
        qrcode: '',
        number: socket.user?.id ? userOf(socket.user.id) : '',
        retries: 0,
      });
      void this.#inbox.drain();
    }
    if (update.connection === 'close') {
      await this.#onClose(statusCodeOf(update.lastDisconnect?.error));
    }
  }

  async #onClose(code: number | undefined) {
    if (this.#stopped) return;
    switch (code) {
      case DisconnectReason.loggedOut: // the phone removed this device
      case DisconnectReason.forbidden: // the number may not use WhatsApp Web
      case DisconnectReason.multideviceMismatch:
        await this.#store.wipe();
        this.#state = undefined;
        this.#pairing = false;
        await this.#status({ status: 'DISCONNECTED', qrcode: '', retries: 0 });
        return;
      case DisconnectReason.connectionReplaced:
        // Another client took this session: taking it back would make the two fight forever.
        await this.#status({ status: 'DISCONNECTED', qrcode: '' });
        return;
      case DisconnectReason.restartRequired:
        // WhatsApp asks for a new socket right after pairing; it is part of logging in.
        this.#connect();
        return;
    }
    if (this.#state && !isPaired(this.#state.creds) && this.#sawQr) {
      // Nobody scanned: stop here instead of showing new QRs for ever. Retry asks for a new one.
      this.#pairing = false;
      await this.#status({ status: 'DISCONNECTED', qrcode: '' });
      return;
    }
    this.#attempt += 1;
    if (this.#attempt > this.deps.retry.maxRetries) {
      await this.#status({ status: 'TIMEOUT', qrcode: '', retries: this.deps.retry.maxRetries });
      return;
    }
    await this.#status({ status: 'OPENING', retries: this.#attempt });
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#connect(), backoffDelay(this.#attempt, this.deps.retry));
    this.#timer.unref();
  }

  #track<T>(work: Promise<T>): void {
    const tracked = work.catch((error) =>
      this.#log.error({ err: error }, 'WhatsApp Web background work failed'),
    );
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  /**
   * One spooled event handed to the server, resolved once committed (else it is tried again,
   * and the later events of its chat wait). Lookups go through the newest socket, open or not.
   */
  async #process(entry: SpooledEntry): Promise<void> {
    const socket = this.#socket ?? this.#lastSocket;
    if (!socket) throw new Error('no WhatsApp Web socket yet');
    let deliveries: Delivery[];
    if (entry.kind === 'message') {
      deliveries = await this.#inbound(socket, [entry.item as WAMessage]);
    } else if (entry.kind === 'update') {
      deliveries = await this.#changes(socket, [entry.item as WAMessageUpdate]);
    } else {
      // Replayed after a restart, the caller is not told again to write.
      const live = entry.createdAt >= this.#startedAt;
      deliveries = await this.#callLogs(socket, [entry.item as WACallEvent], live);
    }
    for (const deliver of deliveries) await deliver();
  }

  /** Too much waits for the spool (the database is away): WhatsApp keeps the rest meanwhile. */
  #pause() {
    const socket = this.#socket;
    if (!socket || this.#stopped) return;
    this.#paused = true;
    this.#release(socket);
    void Promise.resolve(socket.end(undefined)).catch(() => {});
  }

  #resume() {
    if (!this.#paused) return;
    this.#paused = false;
    if (!this.#stopped && !this.#socket && !this.#timer) this.#connect();
  }

  async #setting(key: 'CheckMsgIsGroup' | 'call'): Promise<string> {
    const [row] = await this.#db
      .select({ value: settings.value })
      .from(settings, eq(settings.key, key));
    return row?.value ?? DEFAULT_SETTINGS[key];
  }

  /** The person behind a jid: the phone number when WhatsApp let us know it, and the LID. */
  async #person(socket: BaileysSocket, jid: string | null | undefined, alt?: string | null) {
    const { pn, lid } = identities(jid, alt);
    if (pn) return { number: userOf(pn), ...(lid ? { lid } : {}) };
    if (!lid) return undefined;
    const mapped = await socket.signalRepository.lidMapping.getPNForLID(lid).catch(() => null);
    if (mapped) return { number: userOf(mapped), lid };
    // A contact that once wrote with its number and LID together is still that contact.
    const [known] = await this.#db
      .select({ number: contacts.number })
      .from(contacts, eq(contacts.lid, lid))
      .limit(1);
    return { number: known?.number ?? lid, lid };
  }

  async #chatOf(socket: BaileysSocket, key: WAMessageKey): Promise<string | undefined> {
    const jid = key.remoteJid;
    if (!jid) return undefined;
    if (isGroupChat(jid)) return jidNormalizedUser(jid);
    return (await this.#person(socket, jid, key.remoteJidAlt))?.number;
  }

  async #groupName(socket: BaileysSocket, jid: string): Promise<string | undefined> {
    const known = this.#groupNames.get(jid);
    if (known) return known;
    const subject = await socket
      .groupMetadata(jid)
      .then((metadata) => metadata.subject)
      .catch(() => undefined);
    if (subject) this.#groupNames.set(jid, subject);
    return subject;
  }

  async #inbound(socket: BaileysSocket, list: WAMessage[]): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    let groupsIgnored: boolean | undefined;
    for (const message of list) {
      const { key } = message;
      if (!key.id || !message.message || isIgnoredChat(key.remoteJid)) continue;
      const content = readContent(message.message);
      if (!content) continue;
      const group = isGroupChat(key.remoteJid!);
      if (group) {
        // 'enabled' means the company does not want group conversations (as in the original).
        groupsIgnored ??= (await this.#setting('CheckMsgIsGroup')) === 'enabled';
        if (groupsIgnored) continue;
      }
      const inbound = await this.#toInbound(socket, message, content, group);
      if (inbound) deliveries.push(() => this.events.inbound(inbound));
    }
    return deliveries;
  }

  async #toInbound(
    socket: BaileysSocket,
    message: WAMessage,
    content: Content,
    group: boolean,
  ): Promise<InboundMessage | undefined> {
    const { key } = message;
    const fromMe = Boolean(key.fromMe);
    const person = group
      ? await this.#person(socket, key.participant ?? socket.user?.id, key.participantAlt)
      : await this.#person(socket, key.remoteJid, key.remoteJidAlt);
    if (!person) return undefined;
    const chatJid = jidNormalizedUser(key.remoteJid!);
    const media = content.media;
    const groupName = group ? await this.#groupName(socket, chatJid) : undefined;
    return {
      providerMessageId: key.id!,
      chatId: group ? chatJid : person.number,
      isGroup: group,
      ...(groupName ? { groupName } : {}),
      fromMe,
      contact: {
        ...person,
        // A push name on our own message is ours, not the contact's.
        ...(!fromMe && message.pushName ? { name: storable(message.pushName) } : {}),
      },
      timestamp: timestampOf(message),
      kind: content.kind,
      body: content.body,
      ...(content.quotedId ? { quotedProviderMessageId: content.quotedId } : {}),
      ...(content.location ? { location: content.location } : {}),
      ...(content.vcard ? { vcard: content.vcard } : {}),
      ...(media
        ? {
            media: {
              mimeType: media.mimeType,
              ...(media.fileName ? { fileName: media.fileName } : {}),
              open: () => this.#download(socket, message, media),
            },
          }
        : {}),
    };
  }

  /** The file as a stream, decrypted on the way; WhatsApp re-uploads it if it expired. */
  async #download(
    socket: BaileysSocket,
    message: WAMessage,
    media: NonNullable<Content['media']>,
  ): Promise<Readable> {
    try {
      return await downloadContentFromMessage(media.message, media.type);
    } catch (error) {
      const status = statusCodeOf(error);
      if (status !== 404 && status !== 410) throw error;
      const updated = await socket.updateMediaMessage(message);
      const again = readContent(updated.message)?.media;
      if (!again) throw error;
      return downloadContentFromMessage(again.message, again.type);
    }
  }

  /** Ticks of our messages: only forward, so a lost one is made up by the next. */
  #acks(updates: WAMessageUpdate[]) {
    for (const { key, update } of updates) {
      const ack = ackOf(update.status);
      if (ack && key.fromMe && key.id) {
        this.#track(this.events.ack({ providerMessageId: key.id, ack }));
      }
    }
  }

  async #changes(socket: BaileysSocket, updates: WAMessageUpdate[]): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (const { key, update } of updates) {
      const providerMessageId = key.id;
      if (!providerMessageId) continue;
      const edited = update.message?.editedMessage
        ? editedText(update.message.editedMessage.message)
        : undefined;
      const revoked = update.messageStubType === proto.WebMessageInfo.StubType.REVOKE;
      if (edited === undefined && !revoked) continue;
      const chatId = await this.#chatOf(socket, key);
      if (!chatId) continue;
      if (edited !== undefined) {
        deliveries.push(() =>
          this.events.change({ type: 'edit', chatId, providerMessageId, body: edited }),
        );
      }
      if (revoked) {
        deliveries.push(() => this.events.change({ type: 'delete', chatId, providerMessageId }));
      }
    }
    return deliveries;
  }

  /** Receipts per person (groups, and read receipts of our messages). */
  #receipts(receipts: MessageUserReceiptUpdate[]) {
    for (const { key, receipt } of receipts) {
      if (!key.id || !key.fromMe) continue;
      const ack = receipt.playedTimestamp
        ? ACK.played
        : receipt.readTimestamp
          ? ACK.read
          : receipt.receiptTimestamp
            ? ACK.delivered
            : undefined;
      if (ack) this.#track(this.events.ack({ providerMessageId: key.id, ack }));
    }
  }

  /**
   * With calls off for the company ('call' disabled, as in the original product), a caller is
   * told to write instead and the agent sees the missed call in the ticket.
   */
  async #callLogs(socket: BaileysSocket, calls: WACallEvent[], live: boolean): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (const call of calls) {
      if (!isMissedCall(call)) continue;
      if ((await this.#setting('call')) === 'enabled') continue;
      const person = await this.#person(socket, call.from, call.callerPn);
      if (!person) continue;
      // Once per call, even when storing its log is tried again.
      if (live && !this.#replied.has(call.id)) {
        if (this.#replied.size > 1_000) this.#replied.clear();
        this.#replied.add(call.id);
        this.#track(socket.sendMessage(jidOf(person.number), { text: CALLS_DISABLED_REPLY }));
      }
      const at = call.date instanceof Date ? call.date : new Date();
      const inbound: InboundMessage = {
        providerMessageId: call.id,
        chatId: person.number,
        isGroup: false,
        fromMe: false,
        contact: person,
        timestamp: at,
        kind: 'call_log',
        body: `Chamada de voz/vídeo perdida às ${pad(at.getHours())}:${pad(at.getMinutes())}`,
      };
      deliveries.push(() => this.events.inbound(inbound));
    }
    return deliveries;
  }

  /** What Baileys asks for when a recipient could not decrypt a message and needs it again. */
  async #storedMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    const [row] = await this.#db
      .select({ body: messages.body })
      .from(
        messages,
        and(eq(messages.connectionId, this.ref.id), eq(messages.providerMessageId, key.id)),
      )
      .limit(1);
    return row ? { conversation: row.body } : undefined;
  }

  #content(message: OutboundMessage): AnyMessageContent {
    const media = message.media;
    if (!media) return { text: message.body };
    const file = { stream: createReadStream(this.deps.storage.pathOf(media.path)) };
    const caption = message.body && message.body !== media.fileName ? message.body : undefined;
    switch (media.kind) {
      case 'image':
        return { image: file, caption, mimetype: media.mimeType };
      case 'video':
        return { video: file, caption, mimetype: media.mimeType };
      case 'audio': {
        // Ogg/Opus is what the phone records (and what a recorded WebM is stored as): it plays
        // as a voice note, under the type the phones give their own.
        const voice = media.mimeType.startsWith('audio/ogg');
        return {
          audio: file,
          mimetype: voice ? 'audio/ogg; codecs=opus' : media.mimeType,
          ptt: voice,
        };
      }
      default:
        return { document: file, mimetype: media.mimeType, fileName: media.fileName, caption };
    }
  }

  async send(message: OutboundMessage): Promise<SentMessage> {
    const socket = this.#socket;
    if (!socket || !this.#open) throw new Error('WhatsApp Web session is not connected');
    const jid = jidOf(message.chatId);
    const options: MiscMessageGenerationOptions = {
      // Our id: a retry of the same message is the same message to WhatsApp.
      ...(message.providerMessageId ? { messageId: message.providerMessageId } : {}),
      ...(message.quoted
        ? {
            quoted: {
              key: {
                remoteJid: jid,
                fromMe: message.quoted.fromMe,
                id: message.quoted.providerMessageId,
              },
              message: { conversation: message.quoted.body },
            },
          }
        : {}),
    };
    const content = this.#content(message);
    const sent = await socket.sendMessage(
      jid,
      message.forwarded ? { ...content, contextInfo: FORWARDED } : content,
      options,
    );
    const providerMessageId = sent?.key.id ?? message.providerMessageId;
    if (!providerMessageId) throw new Error('WhatsApp Web did not name the sent message');
    return { providerMessageId, ack: ACK.sent };
  }

  async deleteMessage(message: {
    chatId: string;
    providerMessageId: string;
    fromMe: boolean;
  }): Promise<void> {
    const socket = this.#socket;
    if (!socket || !this.#open) throw new Error('WhatsApp Web session is not connected');
    const jid = jidOf(message.chatId);
    // Deleted for everyone, as the agent sees it removed from the ticket.
    await socket.sendMessage(jid, {
      delete: { remoteJid: jid, fromMe: message.fromMe, id: message.providerMessageId },
    });
  }

  async markRead(receipt: ReadReceipt): Promise<void> {
    const socket = this.#socket;
    if (!socket || !this.#open) throw new Error('WhatsApp Web session is not connected');
    const remoteJid = jidOf(receipt.chatId);
    await socket.readMessages(
      receipt.messages.map((message) => ({
        remoteJid,
        id: message.providerMessageId,
        fromMe: false,
        // In a group the receipt names who wrote each message.
        ...(receipt.isGroup && message.participant
          ? { participant: jidOf(message.participant) }
          : {}),
      })),
    );
  }

  /**
   * Asks WhatsApp which numbers have an account, one number per question: WhatsApp answers with
   * the account's own number, which may differ from the one asked (Brazil's ninth digit), and
   * leaves out the numbers without one.
   */
  async whatsappNumbers(numbers: string[]): Promise<Map<string, boolean>> {
    const found = new Map<string, boolean>();
    for (const number of numbers) {
      const socket = this.#socket;
      if (!socket || !this.#open) break;
      const answers = (await socket.onWhatsApp(jidOf(number))) ?? [];
      found.set(
        number,
        answers.some((answer) => answer.exists),
      );
    }
    return found;
  }

  /** The picture WhatsApp shows for the chat; none when it has none or hides it from us. */
  async profilePicture(chat: { chatId: string; isGroup: boolean }): Promise<Buffer | undefined> {
    const socket = this.#socket;
    if (!socket || !this.#open) return undefined;
    const url = await socket.profilePictureUrl(jidOf(chat.chatId), 'image').catch((error) => {
      // 'item-not-found' (no picture, or privacy settings) and 'not-authorized' mean none.
      const status = statusCodeOf(error);
      if (status === 404 || status === 401 || status === 403) return undefined;
      throw error;
    });
    if (!url) return undefined;
    // WhatsApp's picture servers, through the one door out like any other address.
    const response = await this.deps.outbound.request(url, {
      timeoutMs: PICTURE_TIMEOUT_MS,
      maxBytes: PICTURE_MAX_BYTES,
    });
    if (response.status !== 200) throw new Error(`picture download answered ${response.status}`);
    return response.bytes;
  }

  async stop(options: { logout?: boolean } = {}): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    const socket = this.#socket;
    this.#release(socket);
    if (socket) {
      try {
        if (options.logout) await socket.logout();
        else await socket.end(undefined);
      } catch {
        await Promise.resolve(socket.end(undefined)).catch(() => {});
      }
    }
    await this.#lifecycle;
    // What is not stored yet stays in the spool for the next owner.
    await this.#inbox.stop();
    await Promise.allSettled([...this.#pending]);
    if (options.logout) {
      await this.#store.wipe();
      await this.#status({ status: 'DISCONNECTED', qrcode: '' });
    }
    await this.#store.flush();
  }
}
