import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { Boom } from '@hapi/boom';
import {
  type AnyMessageContent,
  type AuthenticationCreds,
  type AuthenticationState,
  type BaileysEventMap,
  type Contact,
  DisconnectReason,
  generateMessageIDV2,
  getMediaKeys,
  type MessageUserReceiptUpdate,
  type MiscMessageGenerationOptions,
  proto,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type {
  BaileysSocket,
  BaileysSocketFactory,
} from '../../src/channels/baileys/baileys.provider';

/**
 * WhatsApp Web as the Baileys provider sees it, for tests: sockets that emit Baileys' own event
 * shapes (connection.update with qr / open / close and a Boom carrying a DisconnectReason,
 * creds.update, messages.upsert, messages.update, message-receipt.update, call), a phone that
 * scans QRs and enters pairing codes, and a media server holding files encrypted the way
 * WhatsApp encrypts them, so the provider's real download and decryption run.
 */

type MediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

export interface FakeSend {
  connectionId: number;
  jid: string;
  id: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
  /** The file's bytes for media messages. */
  media?: Buffer;
}

class FakeEvents {
  readonly #emitter = new EventEmitter();

  on<K extends keyof BaileysEventMap>(event: K, listener: (arg: BaileysEventMap[K]) => void) {
    this.#emitter.on(event, listener);
  }

  off<K extends keyof BaileysEventMap>(event: K, listener: (arg: BaileysEventMap[K]) => void) {
    this.#emitter.off(event, listener);
  }

  emit<K extends keyof BaileysEventMap>(event: K, arg: BaileysEventMap[K]): boolean {
    return this.#emitter.emit(event, arg);
  }

  listenerCount(event: keyof BaileysEventMap): number {
    return this.#emitter.listenerCount(event);
  }

  counts(): Record<string, number> {
    return Object.fromEntries(
      this.#emitter.eventNames().map((name) => [name, this.#emitter.listenerCount(name)]),
    );
  }

  removeAllListeners() {
    this.#emitter.removeAllListeners();
  }
}

const CROCKFORD = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';
const pairingCode = () =>
  Array.from(randomBytes(8), (byte) => CROCKFORD[byte % CROCKFORD.length]).join('');

const bytes32 = (value: unknown) =>
  (value instanceof Uint8Array || Buffer.isBuffer(value)) && value.length === 32;

const validKeys = (creds: AuthenticationCreds) =>
  bytes32(creds.noiseKey?.private) &&
  bytes32(creds.noiseKey?.public) &&
  bytes32(creds.signedIdentityKey?.private) &&
  bytes32(creds.signedPreKey?.keyPair?.private);

const closed = () =>
  new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });

export class FakeSocket implements BaileysSocket {
  readonly ev = new FakeEvents();
  user?: { id: string; name?: string; lid?: string };
  closed = false;
  /** Listener counts right after the close event was handled: the provider must have left. */
  listenersAfterClose?: Record<string, number>;
  pairingCode?: string;
  pairingPhone?: string;
  qrCount = 0;
  readonly signalRepository: BaileysSocket['signalRepository'];

  constructor(
    private readonly network: FakeWhatsAppWeb,
    readonly connectionId: number,
    readonly auth: AuthenticationState,
  ) {
    this.signalRepository = {
      lidMapping: { getPNForLID: async (lid) => network.phoneOfLid(lid) ?? null },
    };
  }

  get open(): boolean {
    return !this.closed && Boolean(this.user);
  }

  /** Baileys merges a creds update into the state before the app's listeners hear it. */
  #creds(update: Partial<AuthenticationCreds>) {
    Object.assign(this.auth.creds, update);
    this.ev.emit('creds.update', update);
  }

  /** What the real socket does once its WebSocket is up. */
  boot() {
    if (this.closed) return;
    this.ev.emit('connection.update', {
      connection: 'connecting',
      receivedPendingNotifications: false,
      qr: undefined,
    });
    const { creds } = this.auth;
    if (this.network.isUnreachable(this.connectionId)) {
      void this.end(
        new Boom('Connection Terminated', { statusCode: DisconnectReason.connectionClosed }),
      );
    } else if (!validKeys(creds)) {
      // The noise handshake fails with keys that are not 32 bytes (e.g. mangled in storage).
      void this.end(new Boom('Connection Failure', { statusCode: DisconnectReason.badSession }));
    } else if (creds.account) {
      void this.#login();
    } else if (creds.me?.id) {
      // A pairing code that was never confirmed: WhatsApp refuses to log this device in.
      void this.end(new Boom('Connection Failure', { statusCode: DisconnectReason.loggedOut }));
    } else {
      this.showQr();
    }
  }

  async #login() {
    const { creds, keys } = this.auth;
    if (this.network.wasRemoved(creds.me?.id)) {
      await this.end(new Boom('Connection Failure', { statusCode: DisconnectReason.loggedOut }));
      return;
    }
    // Like Baileys after login: pre-keys uploaded, then our LID learnt, then open.
    const first = creds.nextPreKeyId || 1;
    const preKeys: Record<string, { public: Uint8Array; private: Uint8Array }> = {};
    for (let id = first; id < first + 3; id++) {
      preKeys[id] = { public: randomBytes(32), private: randomBytes(32) };
    }
    await keys.set({ 'pre-key': preKeys });
    if (this.closed) return;
    this.#creds({ nextPreKeyId: first + 3, firstUnuploadedPreKeyId: first + 3 });
    this.#creds({ me: { ...creds.me!, lid: creds.me?.lid } });
    this.user = { ...creds.me! };
    this.ev.emit('connection.update', { connection: 'open' });
    this.ev.emit('connection.update', { receivedPendingNotifications: true });
  }

  /** A new QR on the pairing screen (Baileys rotates them until its refs run out). */
  showQr() {
    const { creds } = this.auth;
    this.qrCount += 1;
    const ref = `2@${randomBytes(24).toString('base64')}`;
    const qr = [
      ref,
      Buffer.from(creds.noiseKey.public).toString('base64'),
      Buffer.from(creds.signedIdentityKey.public).toString('base64'),
      creds.advSecretKey,
    ].join(',');
    this.ev.emit('connection.update', { qr });
  }

  /** The phone accepted this device: creds arrive, then WhatsApp asks for a restart. */
  pairSuccess(phone: string, name: string) {
    const lid = this.network.lidOf(phone);
    this.#creds({
      me: { id: `${phone}:11@s.whatsapp.net`, name, lid: `${lid}:11@lid` },
      account: proto.ADVSignedDeviceIdentity.create({
        details: randomBytes(24),
        accountSignatureKey: randomBytes(32),
        accountSignature: randomBytes(64),
        deviceSignature: randomBytes(64),
      }),
      signalIdentities: [
        { identifier: { name: `${lid}:11@lid`, deviceId: 0 }, identifierKey: randomBytes(33) },
      ],
      platform: 'smba',
    });
    this.ev.emit('connection.update', { isNewLogin: true, qr: undefined });
    void this.end(
      new Boom('Stream Errored (restart required)', {
        statusCode: DisconnectReason.restartRequired,
      }),
    );
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (this.closed) throw closed();
    if (this.network.refusePairingCodes) throw new Boom('bad-request', { statusCode: 400 });
    const code = pairingCode();
    this.pairingCode = code;
    this.pairingPhone = phoneNumber;
    this.auth.creds.pairingCode = code;
    this.auth.creds.me = { id: `${phoneNumber}@s.whatsapp.net`, name: '~' };
    this.ev.emit('creds.update', this.auth.creds);
    return code;
  }

  async end(error: Error | undefined): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error, date: new Date() },
    });
    this.listenersAfterClose = this.ev.counts();
    this.ev.removeAllListeners();
  }

  async logout(): Promise<void> {
    if (!this.open) throw closed();
    this.network.removeDevice(this.auth.creds.me?.id);
    void this.end(new Boom('Intentional Logout', { statusCode: DisconnectReason.loggedOut }));
  }

  async sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage> {
    if (!this.open) throw closed();
    const id = options?.messageId ?? generateMessageIDV2(this.user?.id);
    const media = await readMedia(content);
    this.network.sends.push({
      connectionId: this.connectionId,
      jid,
      id,
      content,
      ...(options ? { options } : {}),
      ...(media ? { media } : {}),
    });
    const message: WAMessage = {
      key: { remoteJid: jid, fromMe: true, id },
      message: echoOf(content),
      messageTimestamp: Math.floor(Date.now() / 1000),
      status: proto.WebMessageInfo.Status.PENDING,
    };
    // Baileys hands our own sends back as 'append'.
    this.ev.emit('messages.upsert', { messages: [message], type: 'append' });
    return message;
  }

  async profilePictureUrl(jid: string, type?: 'preview' | 'image'): Promise<string | undefined> {
    if (!this.open) throw closed();
    this.network.pictureRequests.push({ jid, type: type ?? 'preview' });
    const url = await this.network.pictureUrl(jid);
    if (!url) throw new Boom('item-not-found', { statusCode: 404 });
    return url;
  }

  /** Every number has an account on the fake network but those ending in 0000. */
  async onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[]> {
    if (!this.open) throw closed();
    return jids
      .filter((jid) => !jid.split('@')[0]!.endsWith('0000'))
      .map((jid) => ({ jid, exists: true }));
  }

  async readMessages(keys: WAMessageKey[]): Promise<void> {
    if (!this.open) throw closed();
    for (const key of keys) this.network.reads.push({ connectionId: this.connectionId, key });
  }

  async updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    if (!this.open) throw closed();
    return this.network.reupload(message);
  }

  async groupMetadata(jid: string): Promise<{ subject: string }> {
    const subject = this.network.groups.get(jid);
    if (!subject) throw new Boom('item-not-found', { statusCode: 404 });
    return { subject };
  }
}

async function readMedia(content: AnyMessageContent): Promise<Buffer | undefined> {
  const source = (content as Record<string, unknown>)[
    ['image', 'video', 'audio', 'document', 'sticker'].find((key) => key in content) ?? ''
  ] as Buffer | { stream: Readable } | { url: string } | undefined;
  if (!source) return undefined;
  if (Buffer.isBuffer(source)) return source;
  if ('stream' in source) {
    const chunks: Buffer[] = [];
    for await (const chunk of source.stream) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  return Buffer.from(await (await fetch(source.url)).arrayBuffer());
}

/** The message Baileys would build from content, enough for the echo. */
function echoOf(content: AnyMessageContent): proto.IMessage {
  const c = content as Record<string, unknown>;
  if ('text' in c) return { extendedTextMessage: { text: String(c.text) } };
  if ('delete' in c) {
    return {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.REVOKE,
        key: c.delete as WAMessageKey,
      },
    };
  }
  const caption = typeof c.caption === 'string' ? c.caption : undefined;
  const mimetype = typeof c.mimetype === 'string' ? c.mimetype : undefined;
  if ('image' in c) return { imageMessage: { caption, mimetype } };
  if ('video' in c) return { videoMessage: { caption, mimetype } };
  if ('audio' in c) return { audioMessage: { mimetype, ptt: Boolean(c.ptt) } };
  return { documentMessage: { caption, mimetype, fileName: String(c.fileName ?? '') } };
}

export interface EncryptedMedia {
  url: string;
  mediaKey: Uint8Array;
  fileSha256: Uint8Array;
  fileEncSha256: Uint8Array;
  fileLength: number;
}

export class FakeWhatsAppWeb {
  readonly sends: FakeSend[] = [];
  /** Profile pictures by jid, as WhatsApp's picture servers hold them. */
  readonly #pictures = new Map<string, string>();
  readonly pictureRequests: { jid: string; type: 'preview' | 'image' }[] = [];
  /** Read receipts the connections sent for phones' messages (sock.readMessages). */
  readonly reads: { connectionId: number; key: WAMessageKey }[] = [];
  /** WhatsApp answers pairing-code requests with an error (e.g. the number has no account). */
  refusePairingCodes = false;
  readonly groups = new Map<string, string>();
  readonly #sockets = new Map<number, FakeSocket[]>();
  readonly #unreachable = new Set<number>();
  readonly #removed = new Set<string>();
  readonly #lidToPhone = new Map<string, string>();
  readonly #phoneToLid = new Map<string, string>();
  /** Encrypted files by path, as the media servers hold them. */
  readonly #files = new Map<string, Buffer>();
  /** Plain files by address, as the phone keeps them (to upload again). */
  readonly #kept = new Map<string, Buffer>();
  #server?: Promise<string>;
  downloads = 0;

  /** The factory the Baileys provider is given in tests. */
  readonly createSocket: BaileysSocketFactory = ({ connection, auth }) => {
    const socket = new FakeSocket(this, connection.id, auth);
    this.#sockets.set(connection.id, [...this.sockets(connection.id), socket]);
    // The real socket connects on the next tick, after the app registered its listeners.
    setImmediate(() => socket.boot());
    return socket;
  };

  sockets(connectionId: number): FakeSocket[] {
    return this.#sockets.get(connectionId) ?? [];
  }

  /** The connection's newest socket. */
  socket(connectionId: number): FakeSocket {
    const socket = this.sockets(connectionId).at(-1);
    if (!socket) throw new Error(`no socket for connection ${connectionId}`);
    return socket;
  }

  #live(connectionId: number): FakeSocket {
    const socket = this.socket(connectionId);
    if (socket.closed) throw new Error(`connection ${connectionId} has no live socket`);
    return socket;
  }

  /** The phone scans the QR on screen. */
  scan(connectionId: number, phone: string, name = 'Atendi') {
    const socket = this.#live(connectionId);
    if (socket.qrCount === 0) throw new Error('no QR on screen');
    socket.pairSuccess(phone, name);
  }

  /** The person types the pairing code on the phone. */
  enterPairingCode(connectionId: number, code: string, name = 'Atendi') {
    const socket = this.#live(connectionId);
    if (!socket.pairingCode || socket.pairingCode !== code.replace('-', '')) {
      throw new Error('wrong pairing code');
    }
    socket.pairSuccess(socket.pairingPhone!, name);
  }

  nextQr(connectionId: number) {
    this.#live(connectionId).showQr();
  }

  /** Nobody scanned: Baileys' QR refs ran out. */
  expireQr(connectionId: number) {
    void this.#live(connectionId).end(
      new Boom('QR refs attempts ended', { statusCode: DisconnectReason.timedOut }),
    );
  }

  /** The link drops (network loss by default). */
  drop(connectionId: number, statusCode: number = DisconnectReason.connectionLost) {
    void this.#live(connectionId).end(new Boom('Connection Lost', { statusCode }));
  }

  /** While set, every new socket of the connection fails before it opens. */
  setUnreachable(connectionId: number, unreachable: boolean) {
    if (unreachable) this.#unreachable.add(connectionId);
    else this.#unreachable.delete(connectionId);
  }

  isUnreachable(connectionId: number) {
    return this.#unreachable.has(connectionId);
  }

  /** The phone removes this linked device (Settings > Linked devices > Log out). */
  logoutFromPhone(connectionId: number) {
    const socket = this.socket(connectionId);
    this.removeDevice(socket.auth.creds.me?.id);
    if (!socket.closed) {
      void socket.end(new Boom('Connection Failure', { statusCode: DisconnectReason.loggedOut }));
    }
  }

  removeDevice(jid: string | undefined) {
    if (jid) this.#removed.add(jid);
  }

  wasRemoved(jid: string | undefined) {
    return Boolean(jid && this.#removed.has(jid));
  }

  /** The LID WhatsApp gives a phone number (stable per number). */
  lidOf(phone: string): string {
    let lid = this.#phoneToLid.get(phone);
    if (!lid) {
      lid = String(100_000_000_000_000 + this.#phoneToLid.size * 7_919 + Number(phone.slice(-6)));
      this.#phoneToLid.set(phone, lid);
    }
    return lid;
  }

  /** Lets the socket's LID store answer for a LID (as after WhatsApp shared the mapping). */
  shareLid(phone: string) {
    this.#lidToPhone.set(`${this.lidOf(phone)}@lid`, `${phone}@s.whatsapp.net`);
  }

  phoneOfLid(lid: string): string | undefined {
    return this.#lidToPhone.get(lid);
  }

  /** WhatsApp syncs the phone's address book (app state), as Baileys reports it. */
  syncContacts(connectionId: number, ...contacts: Contact[]) {
    this.#live(connectionId).ev.emit('contacts.upsert', contacts);
  }

  /** A person changed what WhatsApp shows of them (e.g. the name they chose). */
  updateContacts(connectionId: number, ...updates: Partial<Contact>[]) {
    this.#live(connectionId).ev.emit('contacts.update', updates);
  }

  /** The history sync at pairing, with the contacts it carries. */
  historySync(connectionId: number, contacts: Contact[]) {
    this.#live(connectionId).ev.emit('messaging-history.set', {
      chats: [],
      contacts,
      messages: [],
      isLatest: true,
    });
  }

  receive(connectionId: number, ...messages: WAMessage[]) {
    this.#live(connectionId).ev.emit('messages.upsert', { messages, type: 'notify' });
  }

  update(connectionId: number, ...updates: WAMessageUpdate[]) {
    this.#live(connectionId).ev.emit('messages.update', updates);
  }

  receipt(connectionId: number, ...receipts: MessageUserReceiptUpdate[]) {
    this.#live(connectionId).ev.emit('message-receipt.update', receipts);
  }

  call(connectionId: number, ...calls: WACallEvent[]) {
    this.#live(connectionId).ev.emit('call', calls);
  }

  /** The ids of a chat's messages its phone was told the connection read. */
  readBy(connectionId: number, jid: string): string[] {
    return this.reads
      .filter((read) => read.connectionId === connectionId && read.key.remoteJid === jid)
      .map((read) => read.key.id!);
  }

  sentBy(connectionId: number): FakeSend[] {
    return this.sends.filter((send) => send.connectionId === connectionId);
  }

  /** The outbound guard letting this fake's file server (pictures, media) through, and only it. */
  async env(): Promise<Record<string, string>> {
    return { OUTBOUND_ALLOW_PRIVATE: new URL(await this.#base()).host };
  }

  #base(): Promise<string> {
    this.#server ??= new Promise((resolve) => {
      const server: Server = createServer((req, res) => {
        const file = this.#files.get(req.url ?? '');
        if (!file) {
          res.writeHead(404).end();
          return;
        }
        // Pictures are served plain as JPEGs; media encrypted, counted as downloads.
        if (req.url?.startsWith('/pps/')) {
          res.writeHead(200, { 'content-type': 'image/jpeg' }).end(file);
          return;
        }
        this.downloads += 1;
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file);
      });
      server.listen(0, '127.0.0.1', () => {
        this.#close = () => new Promise((done) => server.close(() => done()));
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
    return this.#server;
  }

  #close?: () => Promise<void>;

  /** The person or group shows this picture (served plain, as WhatsApp's picture servers do). */
  setProfilePicture(jid: string, image: Buffer) {
    const path = `/pps/t61.24694-24/${randomBytes(12).toString('hex')}.jpg`;
    this.#files.set(path, image);
    this.#pictures.set(jid, path);
  }

  async pictureUrl(jid: string): Promise<string | undefined> {
    const path = this.#pictures.get(jid);
    return path ? `${await this.#base()}${path}` : undefined;
  }

  /** Encrypts a file as WhatsApp does (AES-256-CBC, HMAC tail) and serves it. */
  async host(plain: Buffer, type: MediaType): Promise<EncryptedMedia> {
    const mediaKey = randomBytes(32);
    const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, type);
    const cipher = createCipheriv('aes-256-cbc', cipherKey, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const mac = createHmac('sha256', macKey!).update(iv).update(body).digest().subarray(0, 10);
    const encrypted = Buffer.concat([body, mac]);
    const path = `/v/t62.7118-24/${randomBytes(12).toString('hex')}.enc`;
    this.#files.set(path, encrypted);
    const url = `${await this.#base()}${path}`;
    this.#kept.set(url, plain);
    return {
      url,
      mediaKey,
      fileSha256: createHash('sha256').update(plain).digest(),
      fileEncSha256: createHash('sha256').update(encrypted).digest(),
      fileLength: plain.length,
    };
  }

  /** WhatsApp dropped the file from its servers (old media): downloads get 404. */
  expire(url: string) {
    this.#files.delete(new URL(url).pathname);
  }

  /** The phone uploads an expired file again; the message gets a new address. */
  async reupload(message: WAMessage): Promise<WAMessage> {
    const content = message.message ?? {};
    const key = (Object.keys(content) as (keyof proto.IMessage)[]).find(
      (name) => name.endsWith('Message') && (content[name] as { mediaKey?: unknown })?.mediaKey,
    );
    if (!key) throw new Boom('not a media message', { statusCode: 400 });
    const media = content[key] as { url: string };
    const plain = this.#kept.get(media.url);
    if (!plain) throw new Boom('media gone', { statusCode: 404 });
    const hosted = await this.host(plain, key.replace('Message', '') as MediaType);
    return { ...message, message: { ...content, [key]: { ...media, ...hosted } } };
  }

  /** A media message's content (image, audio, video, document or sticker) with a hosted file. */
  async media(
    type: MediaType,
    plain: Buffer,
    fields: { mimetype: string; caption?: string; fileName?: string; ptt?: boolean },
  ): Promise<proto.IMessage> {
    return { [`${type}Message`]: { ...fields, ...(await this.host(plain, type)) } };
  }

  async close() {
    for (const sockets of this.#sockets.values()) {
      for (const socket of sockets) await socket.end(undefined);
    }
    await this.#close?.();
  }
}

/** A message from a phone, keyed the way WhatsApp keys it (phone number or LID addressing). */
export function phoneMessage(options: {
  content: proto.IMessage;
  phone?: string;
  lid?: string;
  addressing?: 'pn' | 'lid';
  group?: string;
  pushName?: string;
  id?: string;
  fromMe?: boolean;
  timestamp?: number;
}): WAMessage {
  const pn = options.phone ? `${options.phone}@s.whatsapp.net` : undefined;
  const lid = options.lid ? `${options.lid}@lid` : undefined;
  const byLid = options.addressing === 'lid' || !pn;
  const [main, alt] = byLid ? [lid, pn] : [pn, lid];
  const id = options.id ?? `3A${randomBytes(9).toString('hex').toUpperCase()}`;
  const key: WAMessage['key'] = options.group
    ? {
        remoteJid: options.group,
        fromMe: options.fromMe ?? false,
        id,
        participant: main,
        ...(alt ? { participantAlt: alt } : {}),
        addressingMode: byLid ? 'lid' : 'pn',
      }
    : {
        remoteJid: main,
        fromMe: options.fromMe ?? false,
        id,
        ...(alt ? { remoteJidAlt: alt } : {}),
        addressingMode: byLid ? 'lid' : 'pn',
      };
  return {
    key,
    message: options.content,
    messageTimestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    ...(options.pushName ? { pushName: options.pushName } : {}),
  };
}

export const textContent = (text: string, quotedId?: string): proto.IMessage =>
  quotedId
    ? { extendedTextMessage: { text, contextInfo: { stanzaId: quotedId } } }
    : { conversation: text };

/** An edit as Baileys reports it: a messages.update carrying the new content. */
export const editUpdate = (key: WAMessageKey, text: string): WAMessageUpdate => ({
  key,
  update: {
    message: { editedMessage: { message: { conversation: text } } },
    messageTimestamp: Math.floor(Date.now() / 1000),
  },
});

/** A delete for everyone as Baileys reports it. */
export const revokeUpdate = (key: WAMessageKey): WAMessageUpdate => ({
  key,
  update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE, key },
});

export type { WAMessage };

/** Baileys' delivery statuses (proto.WebMessageInfo.Status), for the tests. */
export const WA_STATUS = proto.WebMessageInfo.Status;

/** Delivery status of one of our messages (proto.WebMessageInfo.Status). */
export const statusUpdate = (remoteJid: string, id: string, status: number): WAMessageUpdate => ({
  key: { remoteJid, id, fromMe: true },
  update: { status },
});
