import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ACK, type CloudApiSettings } from '@atendi/shared';
import type { FastifyBaseLogger } from 'fastify';
import { channelConnectionWithKey } from '../../db/channel-queries';
import { type DbHandle, type TenantDb, tenantDb } from '../../db/tenant';
import { systemContext } from '../../platform/auth/context';
import type { Storage } from '../../platform/storage';
import { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../backoff';
import type {
  ChannelEvents,
  ChannelProvider,
  ChannelSession,
  ConnectionRef,
  OutboundMessage,
  ReadReceipt,
  SentMessage,
  StatusUpdate,
} from '../provider';
import { CALL_TIMEOUT_MS, type GraphAccess, GraphClient, GraphError } from './cloud-api.graph';
import { ackOf, type CloudWebhook, changeOf, inboundOf } from './cloud-api.normalise';
import { loadCloudApiSettings, parseCloudApiSettings, SETTINGS_KEY } from './cloud-api.settings';

export interface CloudApiProviderOptions {
  /** How often a connected session checks that its token still works. */
  healthCheckMs?: number;
  /** How long a Graph API call may take (30 s unless a test says otherwise). */
  callTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

interface SessionDeps {
  db: DbHandle;
  storage: Storage;
  log: FastifyBaseLogger;
  graph: GraphAccess;
  healthCheckMs: number;
  callTimeoutMs: number;
  retry: RetryPolicy;
}

/** X-Hub-Signature-256: the HMAC-SHA256 of the raw body with the app secret, in hex. */
export function validSignature(raw: Buffer, header: string | undefined, appSecret: string) {
  // Anyone can sign with an empty key: an unset secret accepts nothing.
  if (!appSecret || !header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Compares secrets in constant time whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  // An unset secret matches nothing, not even an empty answer.
  if (!given || !expected) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The connection a webhook names, as this instance may take its webhooks. */
export interface WebhookTarget {
  ref: ConnectionRef;
  settings: CloudApiSettings;
}

/** The official WhatsApp Business Cloud API: webhooks in, Graph API calls out. */
export class CloudApiProvider implements ChannelProvider {
  readonly name = 'cloud-api' as const;
  readonly #sessions = new Map<number, CloudApiSession>();
  /** Reads of a webhook's connection under way, by connection id. */
  readonly #targets = new Map<number, Promise<WebhookTarget | undefined>>();
  readonly #deps: SessionDeps;

  constructor(
    deps: {
      db: DbHandle;
      storage: Storage;
      log: FastifyBaseLogger;
      outbound: GraphAccess['outbound'];
      /** The platform's Graph API address (CLOUD_API_GRAPH_URL). */
      graphApiUrl: string;
    },
    options: CloudApiProviderOptions = {},
  ) {
    const { outbound, graphApiUrl, ...rest } = deps;
    this.#deps = {
      ...rest,
      graph: { outbound, base: graphApiUrl },
      healthCheckMs: options.healthCheckMs ?? 5 * 60_000,
      callTimeoutMs: options.callTimeoutMs ?? CALL_TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    };
  }

  open(connection: ConnectionRef, events: ChannelEvents): ChannelSession {
    const session: CloudApiSession = new CloudApiSession(connection, events, this.#deps, () => {
      // A restart may already have opened the next session for this connection.
      if (this.#sessions.get(connection.id) === session) this.#sessions.delete(connection.id);
    });
    this.#sessions.set(connection.id, session);
    return session;
  }

  /** The session this instance runs for a connection. */
  session(connectionId: number): CloudApiSession | undefined {
    return this.#sessions.get(connectionId);
  }

  /**
   * The connection a webhook is for, with its settings. Any instance takes webhooks (they need
   * only the database), whether or not it owns the connection; a connection whose session is
   * not started has none, so Meta keeps the payload and tries again later. One round trip, and
   * webhooks of a connection that arrive while it is under way share it: Meta posts many at once.
   */
  webhookTarget(connectionId: number): Promise<WebhookTarget | undefined> {
    let reading = this.#targets.get(connectionId);
    if (!reading) {
      reading = this.#readTarget(connectionId).finally(() => {
        this.#targets.delete(connectionId);
      });
      this.#targets.set(connectionId, reading);
    }
    return reading;
  }

  async #readTarget(connectionId: number): Promise<WebhookTarget | undefined> {
    const row = await channelConnectionWithKey(this.#deps.db, connectionId, SETTINGS_KEY);
    if (!row || row.provider !== this.name || !row.sessionEnabled) return undefined;
    const settings = parseCloudApiSettings(row.value);
    if (!settings) return undefined;
    return { ref: { id: row.id, companyId: row.companyId, name: row.name }, settings };
  }

  /**
   * A signed webhook payload: every message is handed over in order (each chat keeps its order)
   * and this resolves only once all of them are committed, so a failure makes Meta deliver the
   * payload again (stored once: the pipeline is idempotent).
   */
  async receive(
    ref: ConnectionRef,
    events: Pick<ChannelEvents, 'inbound' | 'change' | 'ack'>,
    payload: CloudWebhook,
    settings: CloudApiSettings,
  ): Promise<void> {
    const { graph, callTimeoutMs, log } = this.#deps;
    const client = new GraphClient(settings, graph, callTimeoutMs);
    const openMedia = async (mediaId: string) =>
      client.download((await client.mediaInfo(mediaId)).url);
    const work: Promise<void>[] = [];
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        const value = change.value;
        if (change.field !== 'messages' || !value) continue;
        // One app may serve several numbers: each connection takes only its own.
        if (value.metadata?.phone_number_id !== settings.phoneNumberId) continue;
        for (const message of value.messages ?? []) {
          const edited = changeOf(message);
          if (edited) {
            work.push(events.change(edited));
            continue;
          }
          const inbound = inboundOf(value, message, openMedia);
          if (inbound) work.push(events.inbound(inbound));
        }
        for (const status of value.statuses ?? []) {
          const ack = ackOf(status);
          if (ack) work.push(events.ack(ack));
          else if (status.status === 'failed') {
            log.warn(
              { connectionId: ref.id, providerMessageId: status.id },
              'Cloud API could not deliver',
            );
          }
        }
      }
    }
    const results = await Promise.allSettled(work);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

export class CloudApiSession implements ChannelSession {
  readonly #db: TenantDb;
  readonly #log: FastifyBaseLogger;
  #stopped = false;
  #connected = false;
  #attempt = 0;
  #timer?: NodeJS.Timeout;
  #checking?: Promise<void>;

  constructor(
    private readonly ref: ConnectionRef,
    private readonly events: ChannelEvents,
    private readonly deps: SessionDeps,
    private readonly onClosed: () => void,
  ) {
    this.#db = tenantDb(systemContext(deps.db, ref.companyId));
    this.#log = deps.log.child({ connectionId: ref.id, provider: 'cloud-api' });
  }

  settings(): Promise<CloudApiSettings | undefined> {
    return loadCloudApiSettings(this.#db, this.ref.id);
  }

  #status(update: StatusUpdate) {
    return this.events.status(update);
  }

  async start(): Promise<void> {
    await this.#status({ status: 'OPENING', qrcode: '' });
    await this.check();
  }

  /** Asks the Graph API for the business number: the Cloud API's way of being connected. */
  check(): Promise<void> {
    this.#checking ??= this.#check()
      .catch((error) => this.#log.error({ err: error }, 'Cloud API check failed'))
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }

  #schedule(delayMs: number) {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.check(), delayMs);
    this.#timer.unref();
  }

  async #check() {
    if (this.#stopped) return;
    const settings = await this.settings();
    if (!settings) {
      await this.#disconnected();
      return;
    }
    try {
      const phone = await new GraphClient(
        settings,
        this.deps.graph,
        this.deps.callTimeoutMs,
      ).phoneNumber();
      if (this.#stopped) return;
      this.#attempt = 0;
      if (!this.#connected) {
        this.#connected = true;
        await this.#status({
          status: 'CONNECTED',
          qrcode: '',
          number: (phone.display_phone_number ?? '').replace(/\D/g, ''),
          retries: 0,
        });
      }
      this.#schedule(this.deps.healthCheckMs);
    } catch (error) {
      if (this.#stopped) return;
      // Settings the Graph API refuses (revoked token, unknown number) need a person, not retries.
      if (error instanceof GraphError && error.status !== 429 && error.status < 500) {
        this.#log.warn({ err: error }, 'Cloud API refused the connection settings');
        await this.#disconnected();
        return;
      }
      this.#connected = false;
      this.#attempt += 1;
      if (this.#attempt > this.deps.retry.maxRetries) {
        await this.#status({ status: 'TIMEOUT', qrcode: '', retries: this.deps.retry.maxRetries });
        return;
      }
      await this.#status({ status: 'OPENING', retries: this.#attempt });
      this.#schedule(backoffDelay(this.#attempt, this.deps.retry));
    }
  }

  async #disconnected() {
    this.#connected = false;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#status({ status: 'DISCONNECTED', qrcode: '', retries: 0 });
  }

  async send(message: OutboundMessage): Promise<SentMessage> {
    const settings = await this.settings();
    if (!settings) throw new Error('Cloud API settings are missing');
    if (message.isGroup) throw new Error('The Cloud API has no group chats');
    const client = new GraphClient(settings, this.deps.graph, this.deps.callTimeoutMs);
    const base = {
      recipient_type: 'individual',
      to: message.chatId,
      ...(message.quoted ? { context: { message_id: message.quoted.providerMessageId } } : {}),
    };
    try {
      const media = message.media;
      let payload: Record<string, unknown>;
      if (media) {
        const { id } = await client.uploadMedia(
          this.deps.storage.pathOf(media.path),
          media.mimeType,
          media.fileName,
        );
        const caption =
          media.kind !== 'audio' && message.body && message.body !== media.fileName
            ? { caption: message.body }
            : {};
        const fileName = media.kind === 'document' ? { filename: media.fileName } : {};
        // Ogg Opus goes out as a voice note (played inline, transcribed), not as an audio file.
        const voice =
          media.kind === 'audio' && media.mimeType.startsWith('audio/ogg') ? { voice: true } : {};
        payload = {
          ...base,
          type: media.kind,
          [media.kind]: { id, ...caption, ...fileName, ...voice },
        };
      } else {
        payload = { ...base, type: 'text', text: { body: message.body, preview_url: false } };
      }
      const answer = await client.sendMessage(payload);
      const providerMessageId = answer.messages?.[0]?.id;
      if (!providerMessageId) throw new Error('Cloud API did not name the sent message');
      return { providerMessageId, ack: ACK.sent };
    } catch (error) {
      if (error instanceof GraphError && error.unauthorized && !this.#stopped) {
        await this.#disconnected().catch(() => {});
      }
      throw error;
    }
  }

  /** Only the newest message is sent: the Cloud API marks the earlier ones read with it. */
  async markRead(receipt: ReadReceipt): Promise<void> {
    const newest = receipt.messages.at(-1);
    if (!newest || receipt.isGroup) return;
    const settings = await this.settings();
    if (!settings) throw new Error('Cloud API settings are missing');
    await new GraphClient(settings, this.deps.graph, this.deps.callTimeoutMs).markRead(
      newest.providerMessageId,
    );
  }

  async deleteMessage(): Promise<void> {
    throw new Error('The Cloud API cannot delete a sent message');
  }

  async stop(options: { logout?: boolean } = {}): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.onClosed();
    await this.#checking;
    // The settings are the connection's configuration, kept for the next start.
    if (options.logout) await this.#status({ status: 'DISCONNECTED', qrcode: '' });
  }
}
