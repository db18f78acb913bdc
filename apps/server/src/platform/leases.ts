import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { DedicatedSession, type DedicatedSessionOptions } from './dedicated-session';

export const LEASE_NAMESPACE = 727_002;

/** Lease heartbeat timing (tests shorten it). */
export type LeaseOptions = DedicatedSessionOptions;

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
 * instance dies, so another instance's next sweep takes the connection over.
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
  readonly #session: DedicatedSession;
  readonly #held = new Map<number, number>();
  readonly #lostListeners = new Set<(connectionIds: number[], error?: unknown) => void>();

  constructor(
    private readonly pool: pg.Pool,
    options: LeaseOptions = {},
  ) {
    this.#session = new DedicatedSession(
      pool,
      {
        lost: (error) => {
          const lost = [...this.#held.keys()];
          this.#held.clear();
          for (const listener of this.#lostListeners) listener(lost, error);
        },
      },
      options,
    );
  }

  /** Told which leases were lost with the database session (they may already be taken). */
  onLost(listener: (connectionIds: number[], error?: unknown) => void): void {
    this.#lostListeners.add(listener);
  }

  /** The database backend behind the lease session (tests end it to play a lost link). */
  get backendPid(): number | undefined {
    return this.#session.backendPid;
  }

  get connected(): boolean {
    return this.#session.client !== undefined;
  }

  open(): Promise<void> {
    return this.#session.open();
  }

  /** How long a taker waits when the previous owner died holding the lease. */
  get takeoverWaitMs(): number {
    const { heartbeatMs, heartbeatTimeoutMs } = this.#session.options;
    return heartbeatMs + heartbeatTimeoutMs + 500;
  }

  /**
   * Takes the lease of a connection if nobody holds it: the lock, then the epoch raised and this
   * instance named owner. Undefined when another instance owns it (or the connection is gone).
   */
  async acquire(connectionId: number): Promise<Lease | undefined> {
    const held = this.#held.get(connectionId);
    if (held !== undefined) return { epoch: held, waitMs: 0 };
    const client = this.#session.client;
    if (!client) return undefined;
    const { rows } = await client.query<{ ok: boolean }>(
      'select pg_try_advisory_lock($1, $2) as ok',
      [LEASE_NAMESPACE, connectionId],
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
      if (!lease || this.#session.client !== client) {
        await client.query('select pg_advisory_unlock($1, $2)', [LEASE_NAMESPACE, connectionId]);
        return undefined;
      }
      this.#held.set(connectionId, lease.epoch);
      const died = lease.previous !== null && lease.previous !== this.instanceId;
      return { epoch: lease.epoch, waitMs: died ? this.takeoverWaitMs : 0 };
    } catch (error) {
      await client
        .query('select pg_advisory_unlock($1, $2)', [LEASE_NAMESPACE, connectionId])
        .catch(() => {});
      throw error;
    }
  }

  /** Gives a lease back: the next owner need not wait, nobody died holding it. */
  async release(connectionId: number): Promise<void> {
    const epoch = this.#held.get(connectionId);
    if (epoch === undefined || !this.#held.delete(connectionId)) return;
    const client = this.#session.client;
    if (!client) return;
    await client.query(
      'update connections set lease_owner = null where id = $1 and lease_epoch = $2',
      [connectionId, epoch],
    );
    await client.query('select pg_advisory_unlock($1, $2)', [LEASE_NAMESPACE, connectionId]);
  }

  /** Whether any instance (this one included) holds the connection's lease now. */
  async isHeld(connectionId: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ held: boolean }>(
      `select exists (select 1 from pg_locks where locktype = 'advisory' and granted
         and database = (select oid from pg_database where datname = current_database())
         and classid = $1 and objid = $2 and objsubid = 2) as held`,
      [LEASE_NAMESPACE, connectionId],
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

  async close(): Promise<void> {
    const held = [...this.#held.keys()];
    this.#held.clear();
    await this.#session.close(async (client) => {
      // A clean goodbye: whoever takes these next need not wait for this instance to notice.
      if (held.length > 0) {
        await client.query(
          'update connections set lease_owner = null where id = any($1) and lease_owner = $2',
          [held, this.instanceId],
        );
      }
      // Ending the database session (on return) drops every lease at once.
    });
  }
}
