import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { InstanceBus } from './instance-bus';

/** Two buses on one database, as two instances would have: each with its own pool. */

let t: TestServer;
const pools: pg.Pool[] = [];
const buses: InstanceBus[] = [];

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  for (const pool of pools) await pool.end();
  await t?.stop();
});

async function bus() {
  const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 3 });
  // A pool error (a killed backend) must not end the test process.
  pool.on('error', () => {});
  pools.push(pool);
  const opened = new InstanceBus(pool, {
    heartbeatMs: 100,
    heartbeatTimeoutMs: 200,
    reconnectMs: 100,
  });
  buses.push(opened);
  await opened.open();
  return opened;
}

describe('InstanceBus', () => {
  it('tells every instance, the sender included, on the channels they listen to', async () => {
    const [a, b] = [await bus(), await bus()];
    const heard: string[] = [];
    await a.subscribe('probe_one', (payload) => heard.push(`a:${payload}`));
    await b.subscribe('probe_one', (payload) => heard.push(`b:${payload}`));
    await b.subscribe('probe_two', (payload) => heard.push(`b2:${payload}`));
    await b.notify('probe_one', 'hello');
    await expect.poll(() => [...heard].sort()).toEqual(['a:hello', 'b:hello']);
    await expect(a.subscribe('Not-Ours', () => {})).rejects.toThrow(/invalid channel/);
  });

  it('listens again on its new session after a lost one', async () => {
    const heard: string[] = [];
    const a = await bus();
    const b = await bus();
    await a.subscribe('probe_again', (payload) => heard.push(payload));
    const first = a.backendPid;
    await t.database.pool.query('select pg_terminate_backend($1)', [first]);
    await expect.poll(() => a.connected && a.backendPid !== first).toBe(true);
    await b.notify('probe_again', 'still here');
    await expect.poll(() => heard).toContainEqual('still here');
  });
});
