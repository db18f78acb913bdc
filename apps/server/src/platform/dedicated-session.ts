import type pg from 'pg';

export interface DedicatedSessionOptions {
  /** How often the session proves it still works (default 2 s). */
  heartbeatMs?: number;
  /** A heartbeat unanswered this long means the session may be gone (3 s). */
  heartbeatTimeoutMs?: number;
  /** Pause before opening a new session after one was lost (1 s). */
  reconnectMs?: number;
}

export interface DedicatedSessionHooks {
  /** Sets up a new session (LISTEN, ...) before it is used; a failure discards it. */
  ready?(client: pg.PoolClient): Promise<void>;
  /** The session is gone, with whatever it held (locks, LISTEN); a new one follows by itself. */
  lost?(error?: unknown): void;
  notification?(message: pg.Notification): void;
}

/**
 * One database session kept apart from the pool's traffic, for what lives and dies with a
 * session: advisory locks, LISTEN. It is watched (its 'error' and 'end' events, and a heartbeat
 * with a deadline); once lost, the owner is told at once and a new session is opened.
 */
export class DedicatedSession {
  #client?: pg.PoolClient;
  #opening?: Promise<void>;
  #heartbeat?: NodeJS.Timeout;
  #reconnect?: NodeJS.Timeout;
  #closed = false;
  #backendPid?: number;
  readonly options: Required<DedicatedSessionOptions>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly hooks: DedicatedSessionHooks,
    options: DedicatedSessionOptions = {},
  ) {
    this.options = {
      heartbeatMs: options.heartbeatMs ?? 2_000,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 3_000,
      reconnectMs: options.reconnectMs ?? 1_000,
    };
  }

  /** The live session, if any. */
  get client(): pg.PoolClient | undefined {
    return this.#client;
  }

  /** The database backend behind the session (tests end it to play a lost link). */
  get backendPid(): number | undefined {
    return this.#client ? this.#backendPid : undefined;
  }

  async open(): Promise<void> {
    this.#closed = false;
    await this.#connect();
    this.#heartbeat = setInterval(() => void this.#beat(), this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  #connect(): Promise<void> {
    this.#opening ??= (async () => {
      const client = await this.pool.connect();
      // Without a listener a dropped session would crash the process.
      client.on('error', (error) => this.#lose(client, error));
      client.on('end', () => this.#lose(client));
      client.on('notification', (message) => this.hooks.notification?.(message));
      try {
        await this.hooks.ready?.(client);
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

  async #beat() {
    const client = this.#client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('dedicated session heartbeat timed out')),
        this.options.heartbeatTimeoutMs,
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

  #lose(client: pg.PoolClient, error?: unknown) {
    if (client !== this.#client) return;
    this.#client = undefined;
    try {
      client.release(error instanceof Error ? error : true);
    } catch {}
    this.hooks.lost?.(error);
    this.#scheduleReconnect();
  }

  #scheduleReconnect() {
    if (this.#closed || this.#reconnect) return;
    this.#reconnect = setTimeout(() => {
      this.#reconnect = undefined;
      this.#connect().catch(() => this.#scheduleReconnect());
    }, this.options.reconnectMs);
    this.#reconnect.unref();
  }

  /** Ends the session; `goodbye` runs on it first, while it still holds what it held. */
  async close(goodbye?: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    this.#closed = true;
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (this.#reconnect) clearTimeout(this.#reconnect);
    await this.#opening?.catch(() => {});
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    await goodbye?.(client).catch(() => {});
    client.release(true);
  }
}
