import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { ReadReceipt } from '../channels/provider';

const NAMESPACE = 727_002;
const COMMANDS = 'atendi_channel_commands';

export type ChannelCommand =
  | { connectionId: number; action: 'start' | 'restart' | 'stop' | 'logout' }
  /** Send a stored outbound message; the instance that owns the connection does it. */
  | { connectionId: number; action: 'send'; companyId: number; messageId: number }
  /** Read receipts for the contact; the owner's session sends them. */
  | { connectionId: number; action: 'read'; receipt: ReadReceipt }
  /** Log in anew: the owner stops the session, forgets its stored login and starts again. */
  | { connectionId: number; action: 'renew' }
  /** Delete a sent message for everyone; the owner answers on `replyTo`. */
  | {
      connectionId: number;
      action: 'delete';
      replyTo: string;
      chatId: string;
      providerMessageId: string;
      fromMe: boolean;
    };

export interface LeaseOptions {
  /** How often the lease session proves it still works (default 2 s). */
  heartbeatMs?: number;
  /** A heartbeat unanswered this long means the session, and its locks, may be gone (3 s). */
  heartbeatTimeoutMs?: number;
  /** Pause before opening a new lease session after one was lost (1 s). */
  reconnectMs?: number;
}

/** A connection this instance owns. */
export interface Lease {
  /** Raised at each takeover; status writes carry it, so an owner that lost the lease is fenced. */
  epoch: number;
  /**
   * How long to wait before starting the session: when the previous owner died holding the
   * lease it may not know yet, so it gets the time its heartbeat takes to find out.
   */
  waitMs: number;
}

/**
 * Ownership of connections across server instances. Each instance keeps one dedicated database
 * session: the advisory locks it holds there are its leases, and they vanish with it when the
 * instance dies, so another instance's next sweep takes the connection over. The same session
 * listens for commands that any instance publishes.
 *
 * The session is watched (its 'error' and 'end' events, and a heartbeat with a deadline): once
 * it is lost, so are the locks, and the instance is told at once to stop what it ran under them
 * (`onLost`), then a new session is opened for later sweeps. A taker waits out the heartbeat
 * deadline before starting a connection whose owner died, and every takeover raises the
 * connection's lease epoch, which fences the status writes of an owner that has not noticed yet.
 */
export class LeaseKeeper {
  /** Names this instance in `connections.lease_owner` while it holds a lease. */
  readonly instanceId = randomUUID();
  #client?: pg.PoolClient;
  #opening?: Promise<void>;
  #heartbeat?: NodeJS.Timeout;
  #reconnect?: NodeJS.Timeout;
  #closed = false;
  #backendPid?: number;
  readonly #held = new Map<number, number>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  readonly #lostListeners = new Set<(connectionIds: number[], error?: unknown) => void>();
  readonly #options: Required<LeaseOptions>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onCommand: (command: ChannelCommand) => void,
    options: LeaseOptions = {},
  ) {
    this.#options = {
      heartbeatMs: options.heartbeatMs ?? 2_000,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 3_000,
      reconnectMs: options.reconnectMs ?? 1_000,
    };
  }

  /** Told which leases were lost with the database session (they may already be taken). */
  onLost(listener: (connectionIds: number[], error?: unknown) => void): void {
    this.#lostListeners.add(listener);
  }

  /** The database backend behind the lease session (tests end it to play a lost link). */
  get backendPid(): number | undefined {
    return this.#client ? this.#backendPid : undefined;
  }

  get connected(): boolean {
    return this.#client !== undefined;
  }

  async open(): Promise<void> {
    this.#closed = false;
    await this.#connect();
    this.#heartbeat = setInterval(() => void this.#beat(), this.#options.heartbeatMs);
    this.#heartbeat.unref();
  }

  #connect(): Promise<void> {
    this.#opening ??= (async () => {
      const client = await this.pool.connect();
      // Without a listener a dropped session would crash the process.
      client.on('error', (error) => this.#lose(client, error));
      client.on('end', () => this.#lose(client));
      client.on('notification', (message) => this.#notified(message));
      try {
        await client.query(`listen ${COMMANDS}`);
        for (const channel of this.#listeners.keys()) await client.query(`listen ${channel}`);
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        this.#backendPid = rows[0]?.pid;
      } catch (error) {
        client.release(true);
        throw error;
      }
      if (this.#closed) {
        client.release(true);
        return;
      }
      this.#client = client;
    })().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  #notified(message: pg.Notification) {
    if (!message.payload) return;
    if (message.channel === COMMANDS) {
      try {
        this.onCommand(JSON.parse(message.payload) as ChannelCommand);
      } catch {}
      return;
    }
    for (const listener of this.#listeners.get(message.channel) ?? []) listener(message.payload);
  }

  async #beat() {
    const client = this.#client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('lease session heartbeat timed out')),
        this.#options.heartbeatTimeoutMs,
      );
    });
    try {
      await Promise.race([client.query('select 1'), deadline]);
    } catch (error) {
      this.#lose(client, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The session is gone, and its locks with it: whatever ran under them must stop. */
  #lose(client: pg.PoolClient, error?: unknown) {
    if (client !== this.#client) return;
    this.#client = undefined;
    const lost = [...this.#held.keys()];
    this.#held.clear();
    try {
      client.release(error instanceof Error ? error : true);
    } catch {}
    for (const listener of this.#lostListeners) listener(lost, error);
    this.#scheduleReconnect();
  }

  #scheduleReconnect() {
    if (this.#closed || this.#reconnect) return;
    this.#reconnect = setTimeout(() => {
      this.#reconnect = undefined;
      this.#connect().catch(() => this.#scheduleReconnect());
    }, this.#options.reconnectMs);
    this.#reconnect.unref();
  }

  /** How long a taker waits when the previous owner died holding the lease. */
  get takeoverWaitMs(): number {
    return this.#options.heartbeatMs + this.#options.heartbeatTimeoutMs + 500;
  }

  /**
   * Takes the lease of a connection if nobody holds it: the lock, then the epoch raised and this
   * instance named owner. Undefined when another instance owns it (or the connection is gone).
   */
  async acquire(connectionId: number): Promise<Lease | undefined> {
    const held = this.#held.get(connectionId);
    if (held !== undefined) return { epoch: held, waitMs: 0 };
    const client = this.#client;
    if (!client) return undefined;
    const { rows } = await client.query<{ ok: boolean }>(
      'select pg_try_advisory_lock($1, $2) as ok',
      [NAMESPACE, connectionId],
    );
    if (!rows[0]?.ok) return undefined;
    try {
      const { rows: taken } = await client.query<{ epoch: number; previous: string | null }>(
        `update connections c set lease_epoch = c.lease_epoch + 1, lease_owner = $2
         from (select id, lease_owner from connections where id = $1 for update) previous
         where c.id = previous.id
         returning c.lease_epoch as epoch, previous.lease_owner as previous`,
        [connectionId, this.instanceId],
      );
      const lease = taken[0];
      if (!lease || this.#client !== client) {
        await client.query('select pg_advisory_unlock($1, $2)', [NAMESPACE, connectionId]);
        return undefined;
      }
      this.#held.set(connectionId, lease.epoch);
      const died = lease.previous !== null && lease.previous !== this.instanceId;
      return { epoch: lease.epoch, waitMs: died ? this.takeoverWaitMs : 0 };
    } catch (error) {
      await client
        .query('select pg_advisory_unlock($1, $2)', [NAMESPACE, connectionId])
        .catch(() => {});
      throw error;
    }
  }

  /** Gives a lease back: the next owner need not wait, nobody died holding it. */
  async release(connectionId: number): Promise<void> {
    const epoch = this.#held.get(connectionId);
    if (epoch === undefined || !this.#held.delete(connectionId)) return;
    const client = this.#client;
    if (!client) return;
    await client.query(
      'update connections set lease_owner = null where id = $1 and lease_epoch = $2',
      [connectionId, epoch],
    );
    await client.query('select pg_advisory_unlock($1, $2)', [NAMESPACE, connectionId]);
  }

  /** Whether any instance (this one included) holds the connection's lease now. */
  async isHeld(connectionId: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ held: boolean }>(
      `select exists (select 1 from pg_locks where locktype = 'advisory' and granted
         and database = (select oid from pg_database where datname = current_database())
         and classid = $1 and objid = $2 and objsubid = 2) as held`,
      [NAMESPACE, connectionId],
    );
    return rows[0]?.held ?? false;
  }

  holds(connectionId: number): boolean {
    return this.#held.has(connectionId);
  }

  /** The epoch of a lease this instance holds (status writes are fenced with it). */
  epoch(connectionId: number): number | undefined {
    return this.#held.get(connectionId);
  }

  /** Tells every instance (this one included) about a command; the owner carries it out. */
  async publish(command: ChannelCommand): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [COMMANDS, JSON.stringify(command)]);
  }

  /** Listens to a notification channel (names are ours: lowercase letters and underscores). */
  async subscribe(channel: string, listener: (payload: string) => void): Promise<void> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error('invalid channel name');
    const listeners = this.#listeners.get(channel) ?? new Set();
    const first = listeners.size === 0;
    listeners.add(listener);
    this.#listeners.set(channel, listeners);
    if (first && this.#client) await this.#client.query(`listen ${channel}`);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [channel, payload]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (this.#reconnect) clearTimeout(this.#reconnect);
    await this.#opening?.catch(() => {});
    const client = this.#client;
    this.#client = undefined;
    const held = [...this.#held.keys()];
    this.#held.clear();
    if (!client) return;
    // A clean goodbye: whoever takes these next need not wait for this instance to notice.
    if (held.length > 0) {
      await client
        .query(
          'update connections set lease_owner = null where id = any($1) and lease_owner = $2',
          [held, this.instanceId],
        )
        .catch(() => {});
    }
    // Ending the database session drops every lease at once.
    client.release(true);
  }
}
