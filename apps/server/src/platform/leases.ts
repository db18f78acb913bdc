import type pg from 'pg';
import type { ReadReceipt } from '../channels/provider';

const NAMESPACE = 727_002;
const COMMANDS = 'atendi_channel_commands';

export type ChannelCommand =
  | { connectionId: number; action: 'start' | 'restart' | 'stop' | 'logout' }
  /** Send a stored outbound message; the instance that owns the connection does it. */
  | { connectionId: number; action: 'send'; companyId: number; messageId: number }
  /** Read receipts for the contact; the owner's session sends them. */
  | { connectionId: number; action: 'read'; receipt: ReadReceipt };

/**
 * Ownership of connections across server instances. Each instance keeps one dedicated database
 * session: the advisory locks it holds there are its leases, and they vanish with it when the
 * instance dies, so another instance's next sweep takes the connection over. The same session
 * listens for commands that any instance publishes.
 */
export class LeaseKeeper {
  #client?: pg.PoolClient;
  readonly #held = new Set<number>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly onCommand: (command: ChannelCommand) => void,
  ) {}

  async open(): Promise<void> {
    this.#client = await this.pool.connect();
    this.#client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === COMMANDS) {
        try {
          this.onCommand(JSON.parse(message.payload) as ChannelCommand);
        } catch {}
        return;
      }
      for (const listener of this.#listeners.get(message.channel) ?? []) listener(message.payload);
    });
    await this.#client.query(`listen ${COMMANDS}`);
    for (const channel of this.#listeners.keys()) await this.#client.query(`listen ${channel}`);
  }

  /** Takes the lease of a connection if nobody holds it; true when this instance now owns it. */
  async acquire(connectionId: number): Promise<boolean> {
    if (this.#held.has(connectionId)) return true;
    if (!this.#client) return false;
    const { rows } = await this.#client.query<{ ok: boolean }>(
      'select pg_try_advisory_lock($1, $2) as ok',
      [NAMESPACE, connectionId],
    );
    if (rows[0]?.ok) this.#held.add(connectionId);
    return rows[0]?.ok ?? false;
  }

  async release(connectionId: number): Promise<void> {
    if (!this.#held.delete(connectionId) || !this.#client) return;
    await this.#client.query('select pg_advisory_unlock($1, $2)', [NAMESPACE, connectionId]);
  }

  holds(connectionId: number): boolean {
    return this.#held.has(connectionId);
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
    this.#held.clear();
    // Ending the database session drops every lease at once.
    this.#client?.release(true);
    this.#client = undefined;
  }
}
