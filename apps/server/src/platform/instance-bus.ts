import type pg from 'pg';
import { DedicatedSession, type DedicatedSessionOptions } from './dedicated-session';

/** Notifications to every server instance, this one included. */
export interface Notifier {
  notify(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, listener: (payload: string) => void): Promise<void>;
}

/**
 * The bus between server instances: PostgreSQL notifications, heard on a dedicated session of
 * its own (LISTEN lives and dies with a session). A lost session is replaced by itself and
 * listens again to every channel subscribed so far; what was sent while none listened is not
 * heard, so what must not be lost is stored first and the notification only says where to look.
 */
export class InstanceBus implements Notifier {
  readonly #session: DedicatedSession;
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(
    private readonly pool: pg.Pool,
    options: DedicatedSessionOptions = {},
  ) {
    this.#session = new DedicatedSession(
      pool,
      {
        ready: async (client) => {
          for (const channel of this.#listeners.keys()) await client.query(`listen ${channel}`);
        },
        notification: (message) => {
          if (!message.payload) return;
          for (const listener of this.#listeners.get(message.channel) ?? []) {
            try {
              listener(message.payload);
            } catch {}
          }
        },
      },
      options,
    );
  }

  /** The database backend behind the listening session (tests end it to play a lost link). */
  get backendPid(): number | undefined {
    return this.#session.backendPid;
  }

  get connected(): boolean {
    return this.#session.client !== undefined;
  }

  open(): Promise<void> {
    return this.#session.open();
  }

  /** Listens to a channel (names are ours: lowercase letters and underscores). */
  async subscribe(channel: string, listener: (payload: string) => void): Promise<void> {
    if (!/^[a-z_]+$/.test(channel)) throw new Error('invalid channel name');
    const listeners = this.#listeners.get(channel) ?? new Set();
    const first = listeners.size === 0;
    listeners.add(listener);
    this.#listeners.set(channel, listeners);
    const client = this.#session.client;
    if (first && client) await client.query(`listen ${channel}`);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('select pg_notify($1, $2)', [channel, payload]);
  }

  close(): Promise<void> {
    return this.#session.close();
  }
}
