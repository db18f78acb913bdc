import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { inboxFactories } from '../../test/inbox';
import { connections } from '../db/schema';
import { LeaseKeeper } from './leases';

/**
 * Two lease keepers on one database, as two instances would have: each with its own pool and its
 * own lease session, against real PostgreSQL advisory locks.
 */

let t: TestServer;
const pools: pg.Pool[] = [];
const keepers: LeaseKeeper[] = [];
let companyId: number;

beforeAll(async () => {
  t = await startTestServer();
  companyId = (await t.make.company()).company.id;
});
afterAll(async () => {
  for (const keeper of keepers) await keeper.close();
  for (const pool of pools) await pool.end();
  await t?.stop();
});

async function keeper() {
  const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  // A pool error (a killed backend) must not end the test process.
  pool.on('error', () => {});
  pools.push(pool);
  const leases = new LeaseKeeper(pool, {
    heartbeatMs: 100,
    heartbeatTimeoutMs: 200,
    reconnectMs: 100,
  });
  keepers.push(leases);
  await leases.open();
  return leases;
}

const connection = async () => (await inboxFactories(t).connection(companyId)).id;
const row = async (id: number) =>
  (await t.database.db.select().from(connections).where(eq(connections.id, id)))[0]!;

describe('LeaseKeeper', () => {
  it('gives a connection to one instance at a time, and a clean release lets the next start at once', async () => {
    const [a, b] = [await keeper(), await keeper()];
    const id = await connection();
    const results = await Promise.all([a.acquire(id), b.acquire(id)]);
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    const [owner, other] = results[0] ? [a, b] : [b, a];
    expect(owner.holds(id)).toBe(true);
    expect(other.holds(id)).toBe(false);
    expect(await other.acquire(id)).toBeUndefined();
    const first = winners[0]!;
    expect(first.waitMs).toBe(0);
    expect(await row(id)).toMatchObject({ leaseEpoch: first.epoch, leaseOwner: owner.instanceId });

    await owner.release(id);
    expect((await row(id)).leaseOwner).toBeNull();
    const next = await other.acquire(id);
    expect(next).toEqual({ epoch: first.epoch + 1, waitMs: 0 });
    expect(await owner.acquire(id)).toBeUndefined();
    await other.release(id);
  });

  it("loses its leases with its database session, says so, and the taker waits out the owner's heartbeat", async () => {
    const [a, b] = [await keeper(), await keeper()];
    const ids = [await connection(), await connection()];
    const lost: number[][] = [];
    a.onLost((connectionIds) => lost.push(connectionIds));
    for (const id of ids) expect(await a.acquire(id)).toBeTruthy();
    const epoch = a.epoch(ids[0]!)!;

    // The owner's link to the database dies (a network cut, a failover, a killed backend).
    await t.database.pool.query('select pg_terminate_backend($1)', [a.backendPid]);
    await expect.poll(() => lost).toEqual([ids]);
    expect(ids.map((id) => a.holds(id))).toEqual([false, false]);

    // Another instance takes over; the dead owner never released, so it waits first.
    const taken = await b.acquire(ids[0]!);
    expect(taken).toEqual({ epoch: epoch + 1, waitMs: b.takeoverWaitMs });
    expect(taken!.waitMs).toBeGreaterThan(300);
    expect((await row(ids[0]!)).leaseOwner).toBe(b.instanceId);

    // The first instance opens a new session by itself and may own connections again.
    await expect.poll(() => a.connected).toBe(true);
    expect(await a.acquire(ids[0]!)).toBeUndefined();
    expect(await a.acquire(ids[1]!)).toBeTruthy();
    await b.release(ids[0]!);
    await a.release(ids[1]!);
  });

  it('on close names no owner, so a taker starts without waiting', async () => {
    const [a, b] = [await keeper(), await keeper()];
    const id = await connection();
    expect(await a.acquire(id)).toBeTruthy();
    await a.close();
    expect((await row(id)).leaseOwner).toBeNull();
    expect((await b.acquire(id))?.waitMs).toBe(0);
    await b.release(id);
  });
});
