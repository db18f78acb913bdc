import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, InstanceGroup, pairedDemo, poll } from './processes';

/**
 * Real server processes on one database: the owner of a connection is killed with SIGKILL in the
 * middle of a burst of inbound messages; the other instance takes the connection over, the
 * killed one comes back, and every message is stored exactly once.
 */
const PHONES = 20;
const PER_PHONE = 15;

let group: InstanceGroup;

beforeAll(async () => {
  group = await InstanceGroup.create();
});
afterAll(() => group.close());

describe('a connection owner killed mid-burst', () => {
  it('loses and duplicates nothing', { timeout: 120_000 }, async () => {
    const owner = await group.start(); // seeds the demo company and takes the simulator's lease
    const standby = await group.start();
    const { token, connectionId } = await pairedDemo(standby.url);

    // The phones keep talking to the standby instance's HTTP while the owner dies.
    const send = (phone: number, n: number) =>
      call(
        standby.url,
        token,
        'POST',
        `/simulator/connections/${connectionId}/phones/55119700${String(phone).padStart(5, '0')}/messages`,
        {
          name: `Cliente ${phone}`,
          body: `mensagem ${n}`,
        },
      );
    let sent = 0;
    const burst = (async () => {
      for (let n = 0; n < PER_PHONE; n++) {
        const answers = await Promise.all(
          Array.from({ length: PHONES }, (_, phone) => send(phone, n)),
        );
        sent += answers.filter((answer) => answer.status === 201).length;
      }
    })();
    await poll(
      async () => sent,
      (count) => count >= (PHONES * PER_PHONE) / 3,
    );
    const messages = () => group.count('select count(*) from messages');
    const storedBeforeKill = await messages();
    owner.child.kill('SIGKILL');
    await burst;
    expect(sent).toBe(PHONES * PER_PHONE);
    expect(storedBeforeKill).toBeLessThan(PHONES * PER_PHONE);

    // The standby's lease sweep takes the connection over and delivers what the phones sent.
    const afterTakeover = await poll(messages, (stored) => stored > storedBeforeKill, 20_000);
    expect(afterTakeover).toBeGreaterThan(storedBeforeKill);

    await group.start(); // the killed instance comes back
    const stored = await poll(messages, (count) => count >= PHONES * PER_PHONE, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows } = await group.pool.query(`
      select count(*)::int as messages, count(distinct provider_message_id)::int as distinct_ids,
        (select count(*)::int from simulator_messages where direction = 'inbound' and delivered_at is null) as undelivered,
        (select count(*)::int from tickets) as tickets,
        (select count(*)::int from contacts) as contacts
      from messages`);
    expect(stored).toBe(PHONES * PER_PHONE);
    expect(rows[0]).toEqual({
      messages: PHONES * PER_PHONE,
      distinct_ids: PHONES * PER_PHONE,
      undelivered: 0,
      tickets: PHONES,
      contacts: PHONES,
    });
  });
});
